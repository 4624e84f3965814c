--[[
  drain: remove the jobs waiting to run (wait and prioritized, and delayed when asked) with
  their hashes, locks and logs; active, completed and failed jobs are left alone. Each drained
  job's deduplication key is released (releaseDeduplication) and its expiry deadline dropped
  (dropExpiry, when it has one: field xp). One bounded
  chunk per call, the caller loops while more is left. The call that leaves nothing emits one
  "cleaned" event with the total of all calls, when it is not 0.
  Job keys are built from jobKeyPrefix (same slot).

  KEYS:
    1 wait          LIST    <prefix>:{<queue>}:wait
    2 prioritized   ZSET    <prefix>:{<queue>}:prioritized
    3 delayed       ZSET    <prefix>:{<queue>}:delayed
    4 events        STREAM  <prefix>:{<queue>}:events
    5 meta          HASH    <prefix>:{<queue>}:meta  (eventsMaxLength)
    6 groups         ZSET    <prefix>:{<queue>}:groups  (registry of groups)
    7 groupsReady    ZSET    <prefix>:{<queue>}:groups:ready  (groups that may run, by fair-queueing tag)
    8 groupsLimited  ZSET    <prefix>:{<queue>}:groups:limited  (rate-limited groups, by release time)
    9 marker       ZSET    <prefix>:{<queue>}:marker  (unused: group includes signal it)
  ARGV:
    1 jobKeyPrefix  <prefix>:{<queue>}:job:
    2 delayed       "1" = delayed jobs too, "0" = leave them
    3 limit         max jobs removed in this call
    4 total         jobs removed by the earlier calls of this drain (for the event)
  Returns:
    {removed, more}: removed in this call; more = 1 while jobs to drain are left, else 0
  Events:
    cleaned (count = total removed, state = "waiting", delayed = "1" or "0") by the last call, when
    count > 0 ("drained" means a worker emptied the queue, so an admin drain says "cleaned")
]]
--- @include "removeJobData"
--- @include "emitEvent"
--- @include "groups"
--- @include "releaseDeduplication"
--- @include "dropExpiry"

local q = {
  groups = KEY.groups, groupsReady = KEY.groupsReady, groupsLimited = KEY.groupsLimited,
  events = KEY.events, meta = KEY.meta, marker = KEY.marker, jobPrefix = ARG.jobKeyPrefix
}
local withDelayed = ARG.delayed == "1"
local limit = tonumber(ARG.limit)
local removed = 0

-- Grouped ready jobs: made ready (gin) less those that left (gout).
local function groupedWaiting()
  local v = redis.call("HMGET", q.meta, "gin", "gout")
  return (tonumber(v[1]) or 0) - (tonumber(v[2]) or 0)
end

-- Its deduplication key released, its expiry deadline dropped (when it has one), its keys deleted.
local function drop(id)
  local f = redis.call("HMGET", q.jobPrefix .. id, "dedupId", "xp")
  releaseDeduplication(q, id, f[1])
  if f[2] then
    dropExpiry(q, id)
  end
  removeJobData(q.jobPrefix, id)
end

local ids = redis.call("RPOP", KEY.wait, limit)
if ids then
  for _, id in ipairs(ids) do
    drop(id)
  end
  removed = #ids
end

local function drainSet(key)
  if removed >= limit then
    return
  end
  local popped = redis.call("ZPOPMIN", key, limit - removed)
  for i = 1, #popped, 2 do
    drop(popped[i])
  end
  removed = removed + #popped / 2
end

drainSet(KEY.prioritized)
-- Grouped ready jobs: every registered group (a group with jobs is registered).
if removed < limit and groupedWaiting() > 0 then
  for _, g in ipairs(redis.call("ZRANGE", q.groups, 0, -1)) do
    local jobsKey, stateKey = groups(q, g)
    local before = removed
    drainSet(jobsKey)
    if removed > before then
      redis.call("HINCRBY", q.meta, "gout", removed - before)
      if redis.call("EXISTS", jobsKey) == 0 then
        redis.call("ZREM", q.groupsReady, g)
        redis.call("ZREM", q.groupsLimited, g)
        groups(q).forget(q, g, stateKey)
      end
    end
    if removed >= limit then
      break
    end
  end
end
if withDelayed then
  drainSet(KEY.delayed)
end

local left = redis.call("LLEN", KEY.wait) + redis.call("ZCARD", KEY.prioritized) + groupedWaiting()
if withDelayed then
  left = left + redis.call("ZCARD", KEY.delayed)
end
if left > 0 then
  return {removed, 1}
end
local total = tonumber(ARG.total) + removed
if total > 0 then
  emitEvent(q, "cleaned", nil, "count", total, "state", "waiting", "delayed", ARG.delayed)
end
return {removed, 0}
