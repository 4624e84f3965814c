--[[
  acceptUnusedAttempt: the opening finishStep and finishWaitChildren share (an attempt that ends
  without using one). acceptUnusedAttempt(q, b, i) reads the opening fields (jobId, lockToken,
  group, startedOn, children) of the step or waitChildren record at ARGV[i] by step's offsets (a
  waitChildren record begins with a step record's fields: moveToFinished's Records:). After the
  lock check (acceptFinish) and failIfCancelled (a cancelled job fails as cancelled, its staged
  children dropped), either refusing returns nil; else the children the processor added are
  recorded (stageChildren; children "" = none). Returns jobKey, jobId, group.
]]
--- @include "acceptFinish"
--- @include "failIfCancelled"
--- @include "stageChildren"

local function acceptUnusedAttempt(q, b, i)
  local jobId, lockToken = ARGV[i + FIELD.step.jobId], ARGV[i + FIELD.step.lockToken]
  local jobKey = q.jobPrefix .. jobId
  local group = ARGV[i + FIELD.step.group]
  if not acceptFinish(q, b, jobKey, jobId, lockToken)
      or failIfCancelled(q, b, jobKey, jobId, lockToken, ARGV[i + FIELD.step.startedOn], group) then
    return nil
  end
  local children = ARGV[i + FIELD.step.children]
  if children ~= "" then
    stageChildren(q, jobId, jobKey, children)
  end
  return jobKey, jobId, group
end
