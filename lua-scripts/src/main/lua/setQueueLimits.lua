--[[
  setQueueLimits: set or remove the queue's limits in its meta hash, where every worker's take
  reads them (readMeta, limitTake), and wake the blocked workers (marker 0) so a raised or
  removed limit applies at once. Each argument is "" (unchanged), "-" (remove) or a value; the
  values were validated by the caller (QueueLimits).
  Rate limit: fields rl:max, rl:per (ms), rl:burst (absent = 0); removing it also drops the
  GCRA state rl:tat. Setting it keeps the state, but no further ahead than one new interval
  (Redis clock), so a raised limit is not held back by the old schedule.
  Global concurrency: field concurrency.
  Then meta flow (see readMeta) is set while a limit, a manual limit (limitedUntil) or groups
  (groups, gsettings) are in use, and deleted when none is.

  KEYS:
    1 meta          HASH    <prefix>:{<queue>}:meta
    2 marker        ZSET    <prefix>:{<queue>}:marker
  ARGV:
    1 rateMax       starts per window, "-" = remove the rate limit, "" = unchanged
    2 ratePer       the window in ms (with rateMax)
    3 rateBurst     extra starts after idling, "0" = none (with rateMax)
    4 concurrency   the global concurrency, "-" = remove, "" = unchanged
  Returns:
    1
  Events:
    none
]]
--- @include "signalWorkers"
--- @include "redisNowMs"

local q = {meta = KEY.meta, marker = KEY.marker}
local rateMax, ratePer, rateBurst, concurrency = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
if rateMax == "-" then
  redis.call("HDEL", KEY.meta, "rl:max", "rl:per", "rl:burst", "rl:tat")
elseif rateMax ~= "" then
  redis.call("HSET", KEY.meta, "rl:max", rateMax, "rl:per", ratePer)
  if rateBurst == "0" then
    redis.call("HDEL", KEY.meta, "rl:burst")
  else
    redis.call("HSET", KEY.meta, "rl:burst", rateBurst)
  end
  local tat = tonumber(redis.call("HGET", KEY.meta, "rl:tat"))
  if tat then
    local latest = redisNowMs(q) + tonumber(ratePer) / tonumber(rateMax)
    if tat > latest then
      redis.call("HSET", KEY.meta, "rl:tat", string.format("%.3f", latest))
    end
  end
end
if concurrency == "-" then
  redis.call("HDEL", KEY.meta, "concurrency")
elseif concurrency ~= "" then
  redis.call("HSET", KEY.meta, "concurrency", concurrency)
end
-- flow tells readMeta to read the flow-control fields: kept while any of them is in use.
local inUse = redis.call("HMGET", KEY.meta, "concurrency", "rl:max", "limitedUntil", "groups", "gsettings")
if inUse[1] or inUse[2] or inUse[3] or inUse[4] or inUse[5] then
  redis.call("HSET", KEY.meta, "flow", "1")
else
  redis.call("HDEL", KEY.meta, "flow")
end
signalWorkers(q, 0)
return 1
