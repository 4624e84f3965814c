--[[
  acceptFinish: the lock check of one moveToFinished record. acceptFinish(q, b, jobKey, jobId,
  lockToken) returns true when lockToken holds the job's lock: the lock field goes at once and the
  lease is dropped with the batch's others (b.leaseIds), so a second record for the same job in
  the call is rejected (-2) as a sequence of calls would reject it. Otherwise it appends the
  record's answer to b.outcomes and returns false: -1 job not found, -2 lock missing, -3 lock held
  by another token; or, for a record whose lock token is the job's finishedLock (the same record
  sent again after its first call landed and its reply was lost), where the job is now (a retried
  job another worker took since: waiting). takenGroup(text) decodes a record's group field: "" =
  unknown (nil: releaseGroupSlot reads it), "=" = none (false), "=<g>" = group g.
]]
--- @include "checkLock"

local function acceptFinish(q, b, jobKey, jobId, lockToken)
  local check = checkLock(jobKey, lockToken)
  if check == 0 then
    redis.call("HDEL", jobKey, "lock")
    b.leaseIds[#b.leaseIds + 1] = jobId
    b.releasedHere[jobId] = true
    return true
  end
  if check ~= -1 and not b.releasedHere[jobId] and redis.call("HGET", jobKey, "finishedLock") == lockToken then
    check = "waiting"
    for _, s in ipairs({{q.completed, "completed"}, {q.failed, "failed"}, {q.delayed, "delayed"},
        {q.prioritized, "prioritized"}, {q.waitingChildren, "waiting-children"}}) do
      if redis.call("ZSCORE", s[1], jobId) then
        check = s[2]
        break
      end
    end
  end
  b.outcomes[#b.outcomes + 1] = check
  return false
end

local function takenGroup(text)
  if text == "" then
    return nil
  end
  return text ~= "=" and string.sub(text, 2)
end
