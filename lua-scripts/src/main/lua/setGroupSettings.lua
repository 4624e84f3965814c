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
  groupsLimited = KEY.groupsLimited, jobPrefix = ARG.jobKeyPrefix
}
local group = ARG.group
local changed = 0
-- From now on the take and the finish read each group's settings (groups: G.state); never cleared.
-- flow: readMeta reads the flow-control fields (gsettings among them) only while it is set.
redis.call("HSET", q.meta, "gsettings", "1", "flow", "1")

-- One statement per setting: every field name stays a literal (LuaVocabularyTest reads them).
if group == "" then
  if ARG.concurrency == "" then
    changed = changed + redis.call("HDEL", q.meta, "g:concurrency")
  elseif ARG.concurrency ~= "-" and redis.call("HGET", q.meta, "g:concurrency") ~= ARG.concurrency then
    redis.call("HSET", q.meta, "g:concurrency", ARG.concurrency)
    changed = 1
  end
  if ARG.rlMax == "" then
    changed = changed + redis.call("HDEL", q.meta, "g:rl:max")
  elseif ARG.rlMax ~= "-" and redis.call("HGET", q.meta, "g:rl:max") ~= ARG.rlMax then
    redis.call("HSET", q.meta, "g:rl:max", ARG.rlMax)
    changed = 1
  end
  if ARG.rlPer == "" then
    changed = changed + redis.call("HDEL", q.meta, "g:rl:per")
  elseif ARG.rlPer ~= "-" and redis.call("HGET", q.meta, "g:rl:per") ~= ARG.rlPer then
    redis.call("HSET", q.meta, "g:rl:per", ARG.rlPer)
    changed = 1
  end
  if ARG.rlBurst == "" then
    changed = changed + redis.call("HDEL", q.meta, "g:rl:burst")
  elseif ARG.rlBurst ~= "-" and redis.call("HGET", q.meta, "g:rl:burst") ~= ARG.rlBurst then
    redis.call("HSET", q.meta, "g:rl:burst", ARG.rlBurst)
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
if ARG.concurrency == "" then
  changed = changed + redis.call("HDEL", stateKey, "concurrency")
elseif ARG.concurrency ~= "-" and redis.call("HGET", stateKey, "concurrency") ~= ARG.concurrency then
  redis.call("HSET", stateKey, "concurrency", ARG.concurrency)
  changed = 1
end
if ARG.rlMax == "" then
  changed = changed + redis.call("HDEL", stateKey, "rl:max")
elseif ARG.rlMax ~= "-" and redis.call("HGET", stateKey, "rl:max") ~= ARG.rlMax then
  redis.call("HSET", stateKey, "rl:max", ARG.rlMax)
  changed = 1
end
if ARG.rlPer == "" then
  changed = changed + redis.call("HDEL", stateKey, "rl:per")
elseif ARG.rlPer ~= "-" and redis.call("HGET", stateKey, "rl:per") ~= ARG.rlPer then
  redis.call("HSET", stateKey, "rl:per", ARG.rlPer)
  changed = 1
end
if ARG.rlBurst == "" then
  changed = changed + redis.call("HDEL", stateKey, "rl:burst")
elseif ARG.rlBurst ~= "-" and redis.call("HGET", stateKey, "rl:burst") ~= ARG.rlBurst then
  redis.call("HSET", stateKey, "rl:burst", ARG.rlBurst)
  changed = 1
end
if ARG.maxSize == "" then
  changed = changed + redis.call("HDEL", stateKey, "maxSize")
elseif ARG.maxSize ~= "-" and redis.call("HGET", stateKey, "maxSize") ~= ARG.maxSize then
  redis.call("HSET", stateKey, "maxSize", ARG.maxSize)
  changed = 1
end
if ARG.weight == "" then
  changed = changed + redis.call("HDEL", stateKey, "weight")
elseif ARG.weight ~= "-" and redis.call("HGET", stateKey, "weight") ~= ARG.weight then
  redis.call("HSET", stateKey, "weight", ARG.weight)
  changed = 1
end
if ARG.paused == "" then
  changed = changed + redis.call("HDEL", stateKey, "paused")
elseif ARG.paused ~= "-" and redis.call("HGET", stateKey, "paused") ~= ARG.paused then
  redis.call("HSET", stateKey, "paused", ARG.paused)
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
