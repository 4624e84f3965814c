--[[
  dropExpiredWorkers: forget the workers whose last heartbeat expired (score in workers:seen <=
  now, Redis clock): their entries leave workers and workers:seen. At most `limit` per call, so
  a call stays short however many workers died; the next call takes the rest.
]]
local function dropExpiredWorkers(workersKey, seenKey, now, limit)
  local expired = redis.call("ZRANGE", seenKey, "-inf", now, "BYSCORE", "LIMIT", 0, limit)
  if #expired > 0 then
    redis.call("HDEL", workersKey, unpack(expired))
    redis.call("ZREM", seenKey, unpack(expired))
  end
  return #expired
end
