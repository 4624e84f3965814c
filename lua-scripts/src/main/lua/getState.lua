--[[
  getState: the state of one job, read atomically: sorted sets are checked first (O(log n);
  active = a lease in leases), then wait (LPOS). Read-only.

  KEYS:
    1 wait          LIST    <prefix>:{<queue>}:wait
    2 prioritized   ZSET    <prefix>:{<queue>}:prioritized
    3 delayed       ZSET    <prefix>:{<queue>}:delayed
    4 leases        ZSET    <prefix>:{<queue>}:leases  (the active jobs)
    5 completed     ZSET    <prefix>:{<queue>}:completed
    6 failed        ZSET    <prefix>:{<queue>}:failed
    7 waitingChildren ZSET  <prefix>:{<queue>}:waiting-children
  ARGV:
    1 jobKeyPrefix  <prefix>:{<queue>}:job:  (a grouped job's group key is built from it)
    2 jobId         the job
  Returns:
    "waiting" | "prioritized" | "delayed" | "active" | "waiting-children" | "completed" | "failed" | "unknown"
  Events:
    none
]]
local jobId = ARG.jobId
if redis.call("ZSCORE", KEY.completed, jobId) then
  return "completed"
end
if redis.call("ZSCORE", KEY.failed, jobId) then
  return "failed"
end
if redis.call("ZSCORE", KEY.delayed, jobId) then
  return "delayed"
end
if redis.call("ZSCORE", KEY.prioritized, jobId) then
  return "prioritized"
end
if redis.call("ZSCORE", KEY.leases, jobId) then
  return "active"
end
if redis.call("ZSCORE", KEY.waitingChildren, jobId) then
  return "waiting-children"
end
-- A grouped ready job is waiting: its group's ZSET, found from the job's grp field.
local group = redis.call("HGET", ARG.jobKeyPrefix .. jobId, "grp")
if group and redis.call("ZSCORE", string.sub(ARG.jobKeyPrefix, 1, #ARG.jobKeyPrefix - 4) .. "group:" .. group, jobId) then
  return "waiting"
end
if redis.call("LPOS", KEY.wait, jobId) then
  return "waiting"
end
return "unknown"
