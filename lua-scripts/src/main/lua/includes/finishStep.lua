--[[
  finishStep: moveToFinished's "step" record (the processor asked for a delay; fields in its
  header's Records:). After the lock check and failIfCancelled, the job goes to delayed, due at
  dueAt, with its staged data ("" = none), without using an attempt (stepJob); its group slot is
  released after it is in delayed, so the group is never forgotten in between. The children the
processor added (field children) are recorded first (stageChildren): they do not hold the job. Outcome: delayed
  (failed when cancelled).
]]
--- @include "failIfCancelled"
--- @include "acceptFinish"
--- @include "releaseGroupSlot"
--- @include "stepJob"
--- @include "stageChildren"

local function finishStep(q, b, i)
  local jobId, lockToken = ARGV[i + FIELD.step.jobId], ARGV[i + FIELD.step.lockToken]
  local jobKey = q.jobPrefix .. jobId
  local group = ARGV[i + FIELD.step.group]
  if not acceptFinish(q, b, jobKey, jobId, lockToken)
      or failIfCancelled(q, b, jobKey, jobId, lockToken, ARGV[i + FIELD.step.startedOn], group) then
    return
  end
  local children = ARGV[i + FIELD.step.children]
  if children ~= "" then
    stageChildren(q, jobId, jobKey, children)
  end
  b.outcomes[#b.outcomes + 1] = stepJob(q, jobId, tonumber(ARGV[i + FIELD.step.dueAt]),
    ARGV[i + FIELD.step.stagedData])
  releaseGroupSlot(q, jobId, takenGroup(group))
end
