--[[
  failIfCancelled: the start of an accepted record that ends an attempt without a result (limited
  put-back, step): finishedLock written, the waiting completed entry flushed, a taken-ahead job's
  ahd mark cleared (startedOn ~= ""). A job cancelled while active (field cancel) is failed for
  good instead (the attempt counts: atm + 1; failCancelled), its group slot released first;
  returns true then (its outcome "failed" appended), false for the caller to go on.
]]
--- @include "acceptFinish"
--- @include "landFinished"
--- @include "releaseGroupSlot"
--- @include "failCancelled"
--- @include "intText"

local function failIfCancelled(q, b, jobKey, jobId, lockToken, startedOn, group)
  redis.call("HSET", jobKey, "finishedLock", lockToken)
  flushCompleted(q, b)
  if startedOn ~= "" then
    redis.call("HDEL", jobKey, "ahd")
  end
  local cancel = redis.call("HGET", jobKey, "cancel")
  if not cancel then
    return false
  end
  releaseGroupSlot(q, jobId, takenGroup(group))
  failCancelled(q, jobId, cancel, intText(redis.call("HINCRBY", jobKey, "atm", 1)), "active")
  b.outcomes[#b.outcomes + 1] = "failed"
  return true
end
