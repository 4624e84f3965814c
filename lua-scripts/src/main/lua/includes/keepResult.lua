--[[
  keepResult: what moveToFinished needs for jobs someone awaits (Queue.awaitResult, addAndAwait).
  awaitedTtl(q, jobKey, passed): the ms the job's kept result lives, or nil for a job nobody
  awaits. passed is what the worker read in the job's awaited field at take (nil = not set). Only
  while meta's awaits counter is above 0 (awaits registered on jobs that were already active,
  read by readMeta's one HMGET) does it read the job's awaited/awaitLate fields; a late await is
  resolved here (awaitLate removed, awaits - 1). A job nobody awaits costs no command.
  keepResult(q, jobId, ttl, state, value): SET result:<id> (JSON {state, returnValue |
  failedReason}) with PX ttl: the result outlives the job (removeOnComplete, retention).
]]
--- @include "readMeta"
--- @include "queueContext"

local function awaitedTtl(q, jobKey, passed)
  readMeta(q)
  if q.awaits > 0 then
    local fields = redis.call("HMGET", jobKey, "awaited", "awaitLate")
    if fields[2] then
      redis.call("HDEL", jobKey, "awaitLate")
      redis.call("HINCRBY", q.meta, "awaits", -1)
      q.awaits = q.awaits - 1
    end
    return fields[1] or passed
  end
  return passed
end

local function keepResult(q, jobId, ttl, state, value)
  if not q.base then
    queueContext(q)
  end
  local kept = {state = state}
  if state == "completed" then
    kept.returnValue = value
  else
    kept.failedReason = value
  end
  redis.call("SET", q.base .. "result:" .. jobId, cjson.encode(kept), "PX", ttl)
end
