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
  Owner: a configuration that declares a setting marks it with its owner (rl:owner,
  concurrency:owner), written with the setting; a write without an owner (the API, the
  dashboard) clears the mark. A removal with an owner removes only a setting that carries that
  owner's mark (a configuration removing what it declared and no longer declares); without an
  owner it removes the setting whoever wrote it. Flow and the marker are touched only when a
  setting changed.

  KEYS:
    1 meta          HASH    <prefix>:{<queue>}:meta
    2 marker        ZSET    <prefix>:{<queue>}:marker
  ARGV:
    1 rateMax       starts per window, "-" = remove the rate limit, "" = unchanged
    2 ratePer       the window in ms (with rateMax)
    3 rateBurst     extra starts after idling, "0" = none (with rateMax)
    4 concurrency   the global concurrency, "-" = remove, "" = unchanged
    5 owner         the declaring configuration's owner, "" = none (see Owner above)
  Returns:
    the number of the two settings written or removed (0-2); removing an absent setting, or one
    without this owner's mark, counts none
  Events:
    none
]]
--- @include "signalWorkers"
--- @include "redisNowMs"

local q = {meta = KEY.meta, marker = KEY.marker}
local rateMax, ratePer, rateBurst, concurrency, owner = ARG.rateMax, ARG.ratePer, ARG.rateBurst, ARG.concurrency, ARG.owner
local changed = 0
-- With an owner, a removal takes only a setting that carries that owner's mark.
local marks = redis.call("HMGET", KEY.meta, "rl:owner", "concurrency:owner", "rl:max", "concurrency")

if rateMax == "-" then
  if owner == "" or marks[1] == owner then
    if marks[3] then
      changed = changed + 1
    end
    redis.call("HDEL", KEY.meta, "rl:max", "rl:per", "rl:burst", "rl:tat", "rl:owner")
  end
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
  if owner == "" then
    redis.call("HDEL", KEY.meta, "rl:owner")
  else
    redis.call("HSET", KEY.meta, "rl:owner", owner)
  end
  changed = changed + 1
end
if concurrency == "-" then
  if owner == "" or marks[2] == owner then
    if marks[4] then
      changed = changed + 1
    end
    redis.call("HDEL", KEY.meta, "concurrency", "concurrency:owner")
  end
elseif concurrency ~= "" then
  redis.call("HSET", KEY.meta, "concurrency", concurrency)
  if owner == "" then
    redis.call("HDEL", KEY.meta, "concurrency:owner")
  else
    redis.call("HSET", KEY.meta, "concurrency:owner", owner)
  end
  changed = changed + 1
end
if changed == 0 then
  return 0
end
-- flow tells readMeta to read the flow-control fields: kept while any of them is in use.
local inUse = redis.call("HMGET", KEY.meta, "concurrency", "rl:max", "limitedUntil", "groups", "gsettings")
if inUse[1] or inUse[2] or inUse[3] or inUse[4] or inUse[5] then
  redis.call("HSET", KEY.meta, "flow", "1")
else
  redis.call("HDEL", KEY.meta, "flow")
end
signalWorkers(q, 0)
return changed
