--[[
  setGroupSettings: write or remove settings of one group (groupmeta:<g>) or the queue's defaults
  for groups (meta g:concurrency, g:rl:max, g:rl:per, g:rl:burst), then put what may run again
  where the take finds it. A group's settings: concurrency, rl:max, rl:per, rl:burst, maxSize,
  weight, paused. Pausing takes the group out of groups:ready and groups:limited; anything else
  re-evaluates it (groups: G.ready, into groups:ready, signalling the marker, or groups:limited). A
  change of the defaults re-evaluates the rate-limited groups (at most 1000) and wakes workers.
  A group keeps its registry entry while it has a setting, a ready or an active job (groups: G.forget).
  Sets meta gsettings (never cleared): until then no script reads a group's settings.
  Values are validated by the caller.

  KEYS:
    1 meta          HASH    <prefix>:{<queue>}:meta  (defaults g:*, see readMeta)
    2 marker        ZSET    <prefix>:{<queue>}:marker
    3 events        STREAM  <prefix>:{<queue>}:events
    4 groups        ZSET    <prefix>:{<queue>}:groups  (registry of groups)
    5 groupsReady   ZSET    <prefix>:{<queue>}:groups:ready  (groups that may run, by fair-queueing tag)
    6 groupsLimited ZSET    <prefix>:{<queue>}:groups:limited  (rate-limited groups, by release time)
  ARGV:
    1 jobKeyPrefix  <prefix>:{<queue>}:job:  (group keys are built from its base)
    2 group         the group; "" = the defaults for groups
    3 concurrency   each setting: "-" leaves it as it is, "" removes it, else its new value
    4 rlMax         rate limit: max starts per window
    5 rlPer         rate limit: window, ms
    6 rlBurst       rate limit: burst
    7 maxSize       max ready jobs (not for the defaults)
    8 weight        fair-queueing weight (not for the defaults)
    9 paused        "1" = paused (not for the defaults)
  Returns:
    1 something changed; 0 nothing did (e.g. pausing a paused group)
  Events:
    paused, resumed (field group) when a group's paused setting changes
]]
--- @include "groups"
--- @include "emitEvent"
--- @include "signalWorkers"

local q = {
  meta = KEY.meta, marker = KEY.marker, events = KEY.events, groups = KEY.groups, groupsReady = KEY.groupsReady,
  groupsLimited = KEY.groupsLimited, jobPrefix = ARGV[1]
}
local group = ARGV[2]
local changed = 0
-- From now on the take and the finish read each group's settings (groups: G.state); never cleared.
-- flow: readMeta reads the flow-control fields (gsettings among them) only while it is set.
redis.call("HSET", q.meta, "gsettings", "1", "flow", "1")

-- One statement per setting: every field name stays a literal (LuaVocabularyTest reads them).
if group == "" then
  if ARGV[3] == "" then
    changed = changed + redis.call("HDEL", q.meta, "g:concurrency")
  elseif ARGV[3] ~= "-" and redis.call("HGET", q.meta, "g:concurrency") ~= ARGV[3] then
    redis.call("HSET", q.meta, "g:concurrency", ARGV[3])
    changed = 1
  end
  if ARGV[4] == "" then
    changed = changed + redis.call("HDEL", q.meta, "g:rl:max")
  elseif ARGV[4] ~= "-" and redis.call("HGET", q.meta, "g:rl:max") ~= ARGV[4] then
    redis.call("HSET", q.meta, "g:rl:max", ARGV[4])
    changed = 1
  end
  if ARGV[5] == "" then
    changed = changed + redis.call("HDEL", q.meta, "g:rl:per")
  elseif ARGV[5] ~= "-" and redis.call("HGET", q.meta, "g:rl:per") ~= ARGV[5] then
    redis.call("HSET", q.meta, "g:rl:per", ARGV[5])
    changed = 1
  end
  if ARGV[6] == "" then
    changed = changed + redis.call("HDEL", q.meta, "g:rl:burst")
  elseif ARGV[6] ~= "-" and redis.call("HGET", q.meta, "g:rl:burst") ~= ARGV[6] then
    redis.call("HSET", q.meta, "g:rl:burst", ARGV[6])
    changed = 1
  end
  local limited = redis.call("ZRANGE", q.groupsLimited, 0, 999)
  if #limited > 0 then
    redis.call("ZREM", q.groupsLimited, unpack(limited))
    for _, g in ipairs(limited) do
      groups(q).ready(q, g)
    end
  end
  signalWorkers(q, 0)
  return changed > 0 and 1 or 0
end

local jobsKey, stateKey = groups(q, group)
local pausedBefore = redis.call("HEXISTS", stateKey, "paused") == 1
if ARGV[3] == "" then
  changed = changed + redis.call("HDEL", stateKey, "concurrency")
elseif ARGV[3] ~= "-" and redis.call("HGET", stateKey, "concurrency") ~= ARGV[3] then
  redis.call("HSET", stateKey, "concurrency", ARGV[3])
  changed = 1
end
if ARGV[4] == "" then
  changed = changed + redis.call("HDEL", stateKey, "rl:max")
elseif ARGV[4] ~= "-" and redis.call("HGET", stateKey, "rl:max") ~= ARGV[4] then
  redis.call("HSET", stateKey, "rl:max", ARGV[4])
  changed = 1
end
if ARGV[5] == "" then
  changed = changed + redis.call("HDEL", stateKey, "rl:per")
elseif ARGV[5] ~= "-" and redis.call("HGET", stateKey, "rl:per") ~= ARGV[5] then
  redis.call("HSET", stateKey, "rl:per", ARGV[5])
  changed = 1
end
if ARGV[6] == "" then
  changed = changed + redis.call("HDEL", stateKey, "rl:burst")
elseif ARGV[6] ~= "-" and redis.call("HGET", stateKey, "rl:burst") ~= ARGV[6] then
  redis.call("HSET", stateKey, "rl:burst", ARGV[6])
  changed = 1
end
if ARGV[7] == "" then
  changed = changed + redis.call("HDEL", stateKey, "maxSize")
elseif ARGV[7] ~= "-" and redis.call("HGET", stateKey, "maxSize") ~= ARGV[7] then
  redis.call("HSET", stateKey, "maxSize", ARGV[7])
  changed = 1
end
if ARGV[8] == "" then
  changed = changed + redis.call("HDEL", stateKey, "weight")
elseif ARGV[8] ~= "-" and redis.call("HGET", stateKey, "weight") ~= ARGV[8] then
  redis.call("HSET", stateKey, "weight", ARGV[8])
  changed = 1
end
if ARGV[9] == "" then
  changed = changed + redis.call("HDEL", stateKey, "paused")
elseif ARGV[9] ~= "-" and redis.call("HGET", stateKey, "paused") ~= ARGV[9] then
  redis.call("HSET", stateKey, "paused", ARGV[9])
  changed = 1
end
local pausedNow = redis.call("HEXISTS", stateKey, "paused") == 1
if pausedNow ~= pausedBefore then
  emitEvent(q, pausedNow and "paused" or "resumed", nil, "group", group)
end
if redis.call("EXISTS", stateKey) == 1 then
  redis.call("ZADD", q.groups, "NX", 0, group)
end
if pausedNow then
  redis.call("ZREM", q.groupsReady, group)
  redis.call("ZREM", q.groupsLimited, group)
elseif redis.call("EXISTS", jobsKey) == 1 then
  -- A changed limit may release (or hold back) the group now.
  redis.call("ZREM", q.groupsLimited, group)
  if groups(q).ready(q, group, nil, true) then
    signalWorkers(q, 0)
  end
else
  groups(q).forget(q, group, stateKey)
end
return changed > 0 and 1 or 0
