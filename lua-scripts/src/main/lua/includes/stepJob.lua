--[[
  stepJob: moveToFinished's "step" outcome (the processor asked for a delay: JobContext.delay /
  delayUntil), after the lock check: the attempt ends without using one. The staged data, when
  there is any (data ~= ""), replaces the job's data (a dataUpdated event); ats - 1 undoes the
  take's bump as the rate-limit put-back does, atm is unchanged; the job goes to delayed, due at
  `due` (epoch ms; addDelayed wakes workers when it is the earliest). processedOn keeps the start
  of the step that just ended. The caller releases the lock, the lease and the group slot with
  the batch's others. Emits delayed (delay = due - now in ms, prev = active).
  Returns "delayed".
]]
--- @include "addDelayed"
--- @include "emitEvent"
--- @include "intText"

local function stepJob(q, jobId, due, data)
  local jobKey = q.jobPrefix .. jobId
  redis.call("HINCRBY", jobKey, "ats", -1)
  if data ~= "" then
    redis.call("HSET", jobKey, "data", data)
    emitEvent(q, "dataUpdated", jobId)
  end
  addDelayed(q, jobId, due)
  local delay = due - q.now
  emitEvent(q, "delayed", jobId, "delay", intText(delay > 0 and delay or 0), "prev", "active")
  return "delayed"
end
