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
  ARGV:
    1 jobId         the job
  Returns:
    "waiting" | "prioritized" | "delayed" | "active" | "completed" | "failed" | "unknown"
  Events:
    none
]]
local jobId = ARGV[1]
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
if redis.call("LPOS", KEY.wait, jobId) then
  return "waiting"
end
return "unknown"
