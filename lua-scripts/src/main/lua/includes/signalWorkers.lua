--[[
  signalWorkers: wake workers blocked on the marker (BZPOPMIN). Score 0 means "a job is ready";
  a larger score is the due time of the earliest delayed job, so woken workers re-arm their
  timers. ZADD LT keeps the earliest reason. Nothing is signalled while the queue is paused.
  The paused flag is read once per script call with the other meta fields (readMeta).
]]
--- @include "readMeta"

local function signalWorkers(q, score)
  -- No isPaused function: each function a script defines costs every call (~750 instructions
  -- with an upvalue, docs/adr/0008-lua-cost-rules.md).
  readMeta(q)
  if q.paused then
    return
  end
  if score == 0 then
    if q.signalledReady then
      return
    end
    q.signalledReady = true
  end
  redis.call("ZADD", q.marker, "LT", score, "0")
end
