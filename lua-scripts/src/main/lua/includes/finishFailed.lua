--[[
  finishFailed: moveToFinished's "failed" record (failed for good: the worker found the attempts
  exhausted or the error unrecoverable; fields in its header's Records:). acceptFailedAttempt
  checks the lock, releases the group slot, writes the staged data and records the failure (a
  cancelled job's reason becomes "cancelled: <reason>"); then failForGood. failForGood(q, b, jobKey, jobId, attemptsMade, reason, cancelled, keepCount,
  keepAgeMs, dedupId, awaitTtl, parent), shared with a cancelled retry: finishedOn, the result kept
  for awaiters (keepResult), the parents told when parent is true (notifyParent, before landing,
  while the hash is there), into failed (or deleted when keepCount is "0"; landFinished) with a
  failed event (failedReason, attemptsMade; cancelled = 1 for a cancelled job), then the steps
  that react to the job's end: its deduplication id is released.
]]
--- @include "acceptFailedAttempt"
--- @include "landFinished"
--- @include "keepResult"
--- @include "endDeduplication"
--- @include "notifyParent"

local function failForGood(q, b, jobKey, jobId, attemptsMade, reason, cancelled, keepCount, keepAgeMs, dedupId,
                           awaitTtl, parent)
  redis.call("HSET", jobKey, "finishedOn", q.nowText)
  if awaitTtl then
    keepResult(q, jobId, awaitTtl, "failed", reason)
  end
  if parent then
    notifyParent(q, jobId, redis.call("HGET", jobKey, "par") or "", "failed", reason)
  end
  if cancelled then
    landFinished(q, b, q.failed, "failed", jobId, keepCount, keepAgeMs, "failedReason", reason,
      "attemptsMade", attemptsMade, "cancelled", "1")
  else
    landFinished(q, b, q.failed, "failed", jobId, keepCount, keepAgeMs, "failedReason", reason,
      "attemptsMade", attemptsMade)
  end
  -- The job has ended: the steps that react to its end follow.
  endDeduplication(q, jobId, dedupId)
  b.outcomes[#b.outcomes + 1] = "failed"
end

local function finishFailed(q, b, i)
  local jobKey, jobId, attemptsMade, awaitTtl, reason, cancel = acceptFailedAttempt(q, b, i)
  if not jobKey then
    return
  end
  failForGood(q, b, jobKey, jobId, attemptsMade, reason, cancel, ARGV[i + FIELD.failed.keepCount],
    ARGV[i + FIELD.failed.keepAgeMs], ARGV[i + FIELD.failed.dedupId], awaitTtl, ARGV[i + FIELD.failed.parent] == "1")
end
