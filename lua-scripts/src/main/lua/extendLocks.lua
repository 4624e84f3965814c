--[[
  extendLocks: renew the locks of many active jobs in one call. A lock is renewed only when it
  still holds the caller's token; its lease is moved to the new expiry. Job keys are built from
  jobKeyPrefix (same slot).

  KEYS:
    1 leases        ZSET    <prefix>:{<queue>}:leases
  ARGV:
    1 jobKeyPrefix  <prefix>:{<queue>}:job:
    2 now           epoch millis
    3 lockMs        new lock duration in millis
    4 jobId...      then pairs: jobId, lockToken
  Returns:
    {jobId, ...} the jobs whose lock could not be extended (missing or held by another token)
  Events:
    none
]]
local leases, jobPrefix = KEY.leases, ARGV[1]
local now, lockMs = tonumber(ARGV[2]), tonumber(ARGV[3])
local lost = {}
for i = 4, #ARGV, 2 do
  local jobId, lockToken = ARGV[i], ARGV[i + 1]
  local lockKey = jobPrefix .. jobId .. ":lock"
  if redis.call("GET", lockKey) == lockToken then
    redis.call("PEXPIRE", lockKey, lockMs)
    redis.call("ZADD", leases, "XX", now + lockMs, jobId)
  else
    lost[#lost + 1] = jobId
  end
end
return lost
