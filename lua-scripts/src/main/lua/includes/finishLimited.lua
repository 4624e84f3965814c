--[[
  finishLimited: moveToFinished's "limited" record (the processor threw RateLimitedException;
  fields in its header's Records:). After the lock check and failIfCancelled, the job goes back
  in front of its line without using an attempt and the queue or its group (scope) takes no job
  for delayMs (putBackLimited); its group slot is released after it is back in its group, so the
  group is never forgotten in between. Outcome: waiting or prioritized (failed when cancelled).
]]
--- @include "failIfCancelled"
--- @include "acceptFinish"
--- @include "releaseGroupSlot"
--- @include "putBackLimited"

local function finishLimited(q, b, i)
  local jobId, lockToken = ARGV[i + FIELD.limited.jobId], ARGV[i + FIELD.limited.lockToken]
  local jobKey = q.jobPrefix .. jobId
  local group = ARGV[i + FIELD.limited.group]
  if not acceptFinish(q, b, jobKey, jobId, lockToken)
      or failIfCancelled(q, b, jobKey, jobId, lockToken, ARGV[i + FIELD.limited.startedOn], group) then
    return
  end
  b.outcomes[#b.outcomes + 1] = putBackLimited(q, jobId, tonumber(ARGV[i + FIELD.limited.delayMs]),
    ARGV[i + FIELD.limited.scope])
  releaseGroupSlot(q, jobId, takenGroup(group))
end
