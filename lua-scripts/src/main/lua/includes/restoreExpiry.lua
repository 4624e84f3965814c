--[[
  restoreExpiry: restoreExpiry(q, jobId, deadline): a job handed back unstarted (moveToWait, a
  stalled take-ahead job) gets its deadline back: the expiry ZSET, meta expiry, and the marker at
  the deadline (see addExpiry). Apart from addExpiry so that add scripts do not define it.
]]
--- @include "expiryKey"

local function restoreExpiry(q, jobId, deadline)
  redis.call("ZADD", expiryKey(q), deadline, jobId)
  redis.call("HSET", q.meta, "expiry", "1")
  redis.call("ZADD", q.marker, "LT", deadline, "0")
end
