--[[
  recordFailure: a failed attempt (retried or failed for good) is written to the job: atm
  (attemptsMade after the attempt), failedReason, finishedLock (the attempt's token, for a record
  sent again), processedOn and ahd = 0 for a job taken ahead (startedOn ~= ""), and the stack
  trace appended to the capped JSON array stacktrace (stackLimit kept, oldest dropped; "" = none).
  A job cancelled while active (field cancel, set by cancelJob) gets failedReason
  "cancelled: <reason>"; read here, on the failure path only. Returns the failed reason written
  and the cancel reason (nil = not cancelled).
]]

local function recordFailure(jobKey, lockToken, attemptsMade, reason, stacktrace, stackLimit, startedOn)
  local cancel = redis.call("HGET", jobKey, "cancel")
  if cancel then
    reason = "cancelled: " .. cancel
  end
  if startedOn ~= "" then
    redis.call("HSET", jobKey, "atm", attemptsMade, "failedReason", reason, "processedOn", startedOn, "ahd", "0",
      "finishedLock", lockToken)
  else
    redis.call("HSET", jobKey, "atm", attemptsMade, "failedReason", reason, "finishedLock", lockToken)
  end
  local limit = tonumber(stackLimit)
  if stacktrace ~= "" and limit > 0 then
    local stored = redis.call("HGET", jobKey, "stacktrace")
    local traces = stored and cjson.decode(stored) or {}
    traces[#traces + 1] = stacktrace
    while #traces > limit do
      table.remove(traces, 1)
    end
    redis.call("HSET", jobKey, "stacktrace", cjson.encode(traces))
  end
  return reason, cancel
end
