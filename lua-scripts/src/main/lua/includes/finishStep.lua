--[[
  finishStep: moveToFinished's "step" record (the processor asked for a delay; fields in its
  header's Records:). acceptUnusedAttempt checks the lock, fails a cancelled job, and records the
  children the processor added (field children): they do not hold the job. Then the job goes to
  delayed, due at dueAt, with its staged data ("" = none), without using an attempt (stepJob); its
  group slot is released after it is in delayed, so the group is never forgotten in between.
  Outcome: delayed (failed when cancelled).
]]
--- @include "acceptUnusedAttempt"
--- @include "acceptFinish"
--- @include "releaseGroupSlot"
--- @include "stepJob"

local function finishStep(q, b, i)
  local jobKey, jobId, group = acceptUnusedAttempt(q, b, i)
  if not jobKey then
    return
  end
  b.outcomes[#b.outcomes + 1] = stepJob(q, jobId, tonumber(ARGV[i + FIELD.step.dueAt]),
    ARGV[i + FIELD.step.stagedData])
  releaseGroupSlot(q, jobId, takenGroup(group))
end
