--[[
  finishCompleted: moveToFinished's "completed" record (fields in its header's Records:). After
  the lock check, the job's group slot is released and the job gets atm (attemptsMade after the
  attempt), finishedOn, returnValue (a JSON null is not stored: the job stays lean, the completed
  event carries it), finishedLock, and processedOn and ahd = 0 for a job taken ahead (startedOn);
  its staged data first (writeStagedData). Then it lands in completed (or is deleted when
  keepCount is 0; landFinished), its result is kept for awaiters (keepResult), a job with a parent
  in a flow (field parent) tells its parents (notifyParent; before landing, while its hash is
  there), and the steps that react to its end run: its deduplication id is released (a kept add's
  "added" event follows its completed event). A completion stands whatever the cancel flag says
  (not read). The children the processor added (field children) are recorded first (stageChildren):
  they do not hold the job.
]]
--- @include "acceptFinish"
--- @include "landFinished"
--- @include "writeStagedData"
--- @include "releaseGroupSlot"
--- @include "keepResult"
--- @include "endDeduplication"
--- @include "notifyParent"
--- @include "stageChildren"

local function finishCompleted(q, b, i)
  local jobId, lockToken = ARGV[i + FIELD.completed.jobId], ARGV[i + FIELD.completed.lockToken]
  local jobKey = q.jobPrefix .. jobId
  if not acceptFinish(q, b, jobKey, jobId, lockToken) then
    return
  end
  releaseGroupSlot(q, jobId, takenGroup(ARGV[i + FIELD.completed.group]))
  local attemptsMade, value = ARGV[i + FIELD.completed.attemptsMade], ARGV[i + FIELD.completed.returnValue]
  local startedOn, awaitTtl = ARGV[i + FIELD.completed.startedOn], ARGV[i + FIELD.completed.awaitTtl]
  awaitTtl = awaitedTtl(q, jobKey, awaitTtl ~= "" and awaitTtl or nil)
  writeStagedData(q, b, jobKey, jobId, ARGV[i + FIELD.completed.stagedData])
  -- Numbers go to Redis as the record's strings: a Lua number is formatted with printf("%.17g").
  if value == "null" then
    if startedOn ~= "" then
      redis.call("HSET", jobKey, "atm", attemptsMade, "finishedOn", q.nowText, "processedOn", startedOn, "ahd", "0",
        "finishedLock", lockToken)
    else
      redis.call("HSET", jobKey, "atm", attemptsMade, "finishedOn", q.nowText, "finishedLock", lockToken)
    end
  elseif startedOn ~= "" then
    redis.call("HSET", jobKey, "atm", attemptsMade, "finishedOn", q.nowText, "returnValue", value,
      "processedOn", startedOn, "ahd", "0", "finishedLock", lockToken)
  else
    redis.call("HSET", jobKey, "atm", attemptsMade, "finishedOn", q.nowText, "returnValue", value,
      "finishedLock", lockToken)
  end
  local children = ARGV[i + FIELD.completed.children]
  if children ~= "" then
    stageChildren(q, jobId, jobKey, children)
  end
  if awaitTtl then
    keepResult(q, jobId, awaitTtl, "completed", value)
  end
  if ARGV[i + FIELD.completed.parent] == "1" then
    notifyParent(q, jobId, redis.call("HGET", jobKey, "par") or "", "completed", value)
  end
  landFinished(q, b, q.completed, "completed", jobId, ARGV[i + FIELD.completed.keepCount],
    ARGV[i + FIELD.completed.keepAgeMs], value)
  -- The job has ended: the steps that react to its end follow.
  local dedupId = ARGV[i + FIELD.completed.dedupId]
  if dedupId ~= "" then
    flushCompleted(q, b)
    endDeduplication(q, jobId, dedupId)
  end
  b.outcomes[#b.outcomes + 1] = "completed"
end
