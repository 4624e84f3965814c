--[[
  finishStarted: moveToFinished's "started" record: a buffered job's processor started (take-ahead),
  so a crash from now on counts as a stall. Lock-checked; clears its ahd mark; the lock stays (the
  job is still active) and no outcome is returned.
]]
--- @include "checkLock"

local function finishStarted(q, i)
  local jobKey = q.jobPrefix .. ARGV[i + FIELD.started.jobId]
  if checkLock(jobKey, ARGV[i + FIELD.started.lockToken]) == 0 then
    redis.call("HDEL", jobKey, "ahd")
  end
end
