--[[
  dropExpiry: dropExpiry(q, jobId): a job leaves the expiry ZSET (its first attempt starts, or it
  is removed or cancelled before it started; see addExpiry). Apart from addExpiry so that add
  scripts do not define it.
]]
--- @include "expiryKey"

local function dropExpiry(q, jobId)
  redis.call("ZREM", expiryKey(q), jobId)
end
