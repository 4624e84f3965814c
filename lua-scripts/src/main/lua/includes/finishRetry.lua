--[[
  finishRetry: moveToFinished's "retry" record (a failed attempt with attempts left; the worker
  computed the retry's time; fields in its header's Records:). After the lock check, the group
  slot is released, the staged data written and the failure recorded as finishFailed does. A job
  cancelled while active is failed for good instead (failForGood with the record's removeOnFail
  retention, deduplication id and awaited ttl). Else it goes to delayed at dueAt, or, when dueAt
  is "", back to ready (pushReady: its group, prioritized or wait; lifo "1" runs it next),
  waking a worker. Emits retrying (attemptsMade, delay = delayMs, failedReason).
]]
--- @include "finishFailed"
--- @include "acceptFinish"
--- @include "landFinished"
--- @include "writeStagedData"
--- @include "recordFailure"
--- @include "releaseGroupSlot"
--- @include "keepResult"
--- @include "emitEvent"
--- @include "addDelayed"
--- @include "pushReady"
--- @include "signalWorkers"

local function finishRetry(q, b, i)
  local jobId, lockToken = ARGV[i + FIELD.retry.jobId], ARGV[i + FIELD.retry.lockToken]
  local jobKey = q.jobPrefix .. jobId
  if not acceptFinish(q, b, jobKey, jobId, lockToken) then
    return
  end
  releaseGroupSlot(q, jobId, takenGroup(ARGV[i + FIELD.retry.group]))
  local attemptsMade, awaitTtl = ARGV[i + FIELD.retry.attemptsMade], ARGV[i + FIELD.retry.awaitTtl]
  awaitTtl = awaitedTtl(q, jobKey, awaitTtl ~= "" and awaitTtl or nil)
  writeStagedData(q, b, jobKey, jobId, ARGV[i + FIELD.retry.stagedData])
  local reason, cancel = recordFailure(jobKey, lockToken, attemptsMade, ARGV[i + FIELD.retry.reason],
    ARGV[i + FIELD.retry.stacktrace], ARGV[i + FIELD.retry.stackLimit], ARGV[i + FIELD.retry.startedOn])
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
