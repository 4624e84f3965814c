--[[
  dropExpiry: the expiry deadline's other moves (see addExpiry). dropExpiry(q, jobId): a job whose
  first attempt starts leaves the expiry ZSET. restoreExpiry(q, jobId, deadline): a job handed
  back unstarted (moveToWait) gets its deadline back (ZSET, meta expiry, the marker at the
  deadline). Apart from addExpiry so that add scripts do not define them.
]]
--- @include "addExpiry"

local function restoreExpiry(q, jobId, deadline)
  redis.call("ZADD", expiryKey(q), deadline, jobId)
  redis.call("HSET", q.meta, "expiry", "1")
  redis.call("ZADD", q.marker, "LT", deadline, "0")
end

local function dropExpiry(q, jobId)
  redis.call("ZREM", expiryKey(q), jobId)
end

