--[[
  jobState: the state label of one job, as getState reads it (sorted sets first, then the job's
  group, then wait with LPOS): "completed", "failed", "delayed", "prioritized", "active",
  "waiting" or "unknown". For the refusals of the job-change scripts (changeDelay,
  changePriority, updateData), which name the state a job is in; not on any hot path.
  Reads q.completed, q.failed, q.delayed, q.prioritized, q.leases, q.wait and q.jobPrefix.
]]
--- @include "groups"

local function jobState(q, jobId)
  for _, s in ipairs({{q.completed, "completed"}, {q.failed, "failed"}, {q.delayed, "delayed"},
      {q.prioritized, "prioritized"}, {q.leases, "active"}}) do
    if redis.call("ZSCORE", s[1], jobId) then
      return s[2]
    end
  end
  local group = redis.call("HGET", q.jobPrefix .. jobId, "grp")
  if group and redis.call("ZSCORE", (groups(q, group)), jobId) then
    return "waiting"
  end
  if redis.call("LPOS", q.wait, jobId) then
    return "waiting"
  end
  return "unknown"
end
