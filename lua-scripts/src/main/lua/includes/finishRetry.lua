--[[
  finishRetry: moveToFinished's "retry" record (a failed attempt with attempts left; the worker
  computed the retry's time; fields in its header's Records:). acceptFailedAttempt opens it as
  it opens finishFailed (lock check, group slot, staged data, failure recorded). A job
  cancelled while active is failed for good instead (failForGood with the record's removeOnFail
  retention, deduplication id and awaited ttl). Else it goes to delayed at dueAt, or, when dueAt
  is "", back to ready (pushReady: its group, prioritized or wait; lifo "1" runs it next),
  waking a worker. Emits retrying (attemptsMade, delay = delayMs, failedReason).
]]
--- @include "finishFailed"
--- @include "acceptFailedAttempt"
--- @include "landFinished"
--- @include "emitEvent"
--- @include "addDelayed"
--- @include "pushReady"
--- @include "signalWorkers"

local function finishRetry(q, b, i)
  local jobKey, jobId, attemptsMade, awaitTtl, reason, cancel = acceptFailedAttempt(q, b, i)
  if not jobKey then
    return
  end
  if cancel then
    return failForGood(q, b, jobKey, jobId, attemptsMade, reason, true, ARGV[i + FIELD.retry.keepCount],
      ARGV[i + FIELD.retry.keepAgeMs], ARGV[i + FIELD.retry.dedupId], awaitTtl, ARGV[i + FIELD.retry.parent] == "1")
  end
  local dueAt, state = ARGV[i + FIELD.retry.dueAt], "delayed"
  if dueAt ~= "" then
    addDelayed(q, jobId, tonumber(dueAt))
  else
    local ready = redis.call("HMGET", jobKey, "priority", "grp")
    state = pushReady(q, jobId, tonumber(ready[1]) or 0, ARGV[i + FIELD.retry.lifo] == "1", ready[2])
    signalWorkers(q, 0)
  end
  flushCompleted(q, b)
  emitEvent(q, "retrying", jobId, "attemptsMade", attemptsMade, "delay", ARGV[i + FIELD.retry.delayMs],
    "failedReason", reason)
  b.outcomes[#b.outcomes + 1] = state
end
