--[[
  retryFinishedJob: run a finished job again with a fresh set of attempts, once the caller has
  taken its id out of failed or completed: attemptsMade and stalledCount back to 0; finishedOn,
  failedReason, returnValue, a cancel request and an expiry deadline (xp: an expired job retried
  runs, with no deadline) removed; the stacktrace history kept. The job goes to wait (or
  prioritized), workers are woken, and a "waiting" event names the state it came from (prev).
]]
--- @include "pushReady"
--- @include "signalWorkers"
--- @include "emitEvent"

local function retryFinishedJob(q, jobId, prev)
  local jobKey = q.jobPrefix .. jobId
  redis.call("HDEL", jobKey, "finishedOn", "failedReason", "returnValue", "cancel", "xp")
  redis.call("HSET", jobKey, "atm", "0", "stc", "0")
  local ready = redis.call("HMGET", jobKey, "priority", "grp")
  pushReady(q, jobId, tonumber(ready[1]) or 0, false, ready[2])
  signalWorkers(q, 0)
  emitEvent(q, "waiting", jobId, "prev", prev)
end
