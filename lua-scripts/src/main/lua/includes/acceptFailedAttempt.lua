--[[
  acceptFailedAttempt: the opening finishFailed and finishRetry share. acceptFailedAttempt(q, b,
  i) reads the opening fields of the failed or retry record at ARGV[i] by failed's offsets (a
  retry record begins with a failed record's fields, in the same order: moveToFinished's
  Records:). After the lock check (acceptFinish; a refused record returns nil) the job's group
  slot is released, its awaited ttl resolved (awaitedTtl), its staged data written
  (writeStagedData) and the failure recorded (recordFailure: a cancelled job's reason becomes
  "cancelled: <reason>"). Returns jobKey, jobId, attemptsMade, awaitTtl, reason, cancelled.
]]
--- @include "acceptFinish"
--- @include "releaseGroupSlot"
--- @include "writeStagedData"
--- @include "recordFailure"
--- @include "keepResult"

local function acceptFailedAttempt(q, b, i)
  local jobId, lockToken = ARGV[i + FIELD.failed.jobId], ARGV[i + FIELD.failed.lockToken]
  local jobKey = q.jobPrefix .. jobId
  if not acceptFinish(q, b, jobKey, jobId, lockToken) then
    return nil
  end
  releaseGroupSlot(q, jobId, takenGroup(ARGV[i + FIELD.failed.group]))
  local attemptsMade, awaitTtl = ARGV[i + FIELD.failed.attemptsMade], ARGV[i + FIELD.failed.awaitTtl]
  awaitTtl = awaitedTtl(q, jobKey, awaitTtl ~= "" and awaitTtl or nil)
  writeStagedData(q, b, jobKey, jobId, ARGV[i + FIELD.failed.stagedData])
  local reason, cancelled = recordFailure(jobKey, lockToken, attemptsMade, ARGV[i + FIELD.failed.reason],
    ARGV[i + FIELD.failed.stacktrace], ARGV[i + FIELD.failed.stackLimit], ARGV[i + FIELD.failed.startedOn])
  return jobKey, jobId, attemptsMade, awaitTtl, reason, cancelled
end
