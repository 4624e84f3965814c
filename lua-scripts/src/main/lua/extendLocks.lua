--[[
  extendLocks: renew the locks of many active jobs in one call. A lock is renewed only when it
  still holds the caller's token (field lock of the job hash) and its lease has not expired on
  Redis's clock; the lease is moved to Redis's now + lockMs. A lease that expired (not yet
  recovered) is not revived, so live leases never exceed a concurrency cap: its lock field is
  dropped, as the lock key's expiry did, and later calls with the token are rejected. Job keys are
  built from jobKeyPrefix (same slot).

  KEYS:
    1 leases        ZSET    <prefix>:{<queue>}:leases
  ARGV:
    1 jobKeyPrefix  <prefix>:{<queue>}:job:
    2 now           epoch millis (the caller's; unused: leases are on Redis's clock)
    3 lockMs        new lock duration in millis
    4 jobId...      then pairs: jobId, lockToken
  Returns:
    {jobId, ...} the jobs whose lock could not be extended (missing, held by another token, or
    its lease expired)
  Events:
    none
]]
--- @include "redisNowMs"

local leases, jobPrefix = KEY.leases, ARG.jobKeyPrefix
local q = {}
local now, lockMs = redisNowMs(q), tonumber(ARG.lockMs)
local lost = {}
for i = ARG_FROM.jobId, #ARGV, 2 do
  local jobId, lockToken = ARGV[i], ARGV[i + 1]
  local jobKey = jobPrefix .. jobId
  if redis.call("HGET", jobKey, "lock") == lockToken then
    local lease = redis.call("ZSCORE", leases, jobId)
    if lease and tonumber(lease) > now then
      redis.call("ZADD", leases, "XX", string.format("%d", now + lockMs), jobId)
    else
      redis.call("HDEL", jobKey, "lock")
      lost[#lost + 1] = jobId
    end
  else
    lost[#lost + 1] = jobId
  end
end
return lost
