--[[
  obliterate: delete a queue and everything in it, one bounded chunk per call; the caller pauses
  the queue first (so workers take nothing meanwhile) and loops until done. Each call deletes up
  to `limit` jobs (hash, lock, logs) taken from active (leases; only when forced), wait,
  prioritized, delayed, completed and failed, then up to `limit` job schedulers (their
  scheduler:<id> hashes); the call that finds all of those empty deletes the queue's own keys:
  the state keys, marker, meta (so the pause goes last), events, the id and fence counters, schedulers
  and the metrics lists, and the workers' heartbeats (a worker still running writes its own
  again). Refuses while jobs are active unless forced; workers of forcibly
  deleted active jobs then fail to report them (job not found). Job and scheduler keys are
  built from jobKeyPrefix and schedulerKeyPrefix (same slot). The queue registry
  (<prefix>:queues, another slot) is the caller's business. Each deleted job's deduplication key
  goes with it (releaseDeduplication); a ttl key whose job was gone already expires by itself.

  KEYS:
    1 wait          LIST    <prefix>:{<queue>}:wait
    2 prioritized   ZSET    <prefix>:{<queue>}:prioritized
    3 delayed       ZSET    <prefix>:{<queue>}:delayed
    4 leases        ZSET    <prefix>:{<queue>}:leases  (the active jobs)
    5 completed     ZSET    <prefix>:{<queue>}:completed
    6 failed        ZSET    <prefix>:{<queue>}:failed
    7 marker        ZSET    <prefix>:{<queue>}:marker
    8 meta          HASH    <prefix>:{<queue>}:meta
    9 events        STREAM  <prefix>:{<queue>}:events
    10 id           STRING  <prefix>:{<queue>}:id
    11 fence        STRING  <prefix>:{<queue>}:fence
    12 schedulers   ZSET    <prefix>:{<queue>}:schedulers
    13 metricsCompleted LIST <prefix>:{<queue>}:metrics:completed
    14 metricsFailed  LIST  <prefix>:{<queue>}:metrics:failed
    15 groups        ZSET    <prefix>:{<queue>}:groups  (registry of groups)
    16 groupsReady   ZSET    <prefix>:{<queue>}:groups:ready  (groups that may run, by fair-queueing tag)
    17 groupsLimited ZSET    <prefix>:{<queue>}:groups:limited  (rate-limited groups, by release time)
    18 workers       HASH    <prefix>:{<queue>}:workers  (live workers' heartbeats)
    19 workersSeen   ZSET    <prefix>:{<queue>}:workers:seen  (their expiry)
  ARGV:
    1 jobKeyPrefix  <prefix>:{<queue>}:job:
    2 schedulerKeyPrefix  <prefix>:{<queue>}:scheduler:
    3 force         "1" = delete active jobs too; "0" = refuse while any job is active
    4 limit         max jobs (and max schedulers) deleted in this call
  Returns:
    {deleted jobs, done (1 = the queue is gone, 0 = call again)}; -7 jobs are active (not forced)
  Events:
    none (the events stream is deleted with the rest)
]]
--- @include "removeJobData"
--- @include "releaseDeduplication"

local jobPrefix, schedulerPrefix = ARG.jobKeyPrefix, ARG.schedulerKeyPrefix
local force, limit = ARG.force == "1", tonumber(ARG.limit)
local q = { jobPrefix = jobPrefix }

local function removeJob(id)
  releaseDeduplication(q, id, redis.call("HGET", jobPrefix .. id, "dedupId"))
  removeJobData(jobPrefix, id)
end

if not force and redis.call("ZCARD", KEY.leases) > 0 then
  return -7
end

local deleted = 0

local function fromList(key)
  if deleted >= limit then
    return
  end
  local ids = redis.call("RPOP", key, limit - deleted)
  if ids then
    for _, id in ipairs(ids) do
      removeJob(id)
    end
    deleted = deleted + #ids
  end
end

local function fromSet(key)
  if deleted >= limit then
    return
  end
  local popped = redis.call("ZPOPMIN", key, limit - deleted)
  for i = 1, #popped, 2 do
    removeJob(popped[i])
  end
  deleted = deleted + #popped / 2
end

fromSet(KEY.leases)
fromList(KEY.wait)
fromSet(KEY.prioritized)
fromSet(KEY.delayed)
fromSet(KEY.completed)
fromSet(KEY.failed)
-- Groups: their ready jobs, then their keys (built from the base, like job keys).
local base = string.sub(jobPrefix, 1, #jobPrefix - 4)
while deleted < limit do
  local first = redis.call("ZRANGE", KEY.groups, 0, 0)[1]
  if not first then
    break
  end
  local jobsKey = base .. "group:" .. first
  fromSet(jobsKey)
  if redis.call("EXISTS", jobsKey) == 0 then
    redis.call("DEL", base .. "groupmeta:" .. first)
    redis.call("ZREM", KEY.groups, first)
  end
end
if deleted >= limit then
  return {deleted, 0}
end

local schedulers = redis.call("ZPOPMIN", KEY.schedulers, limit)
for i = 1, #schedulers, 2 do
  redis.call("DEL", schedulerPrefix .. schedulers[i])
end
if #schedulers / 2 >= limit then
  return {deleted, 0}
end

-- Everything the queue referenced is gone: its own keys go last (UNLINK frees big ones lazily).
redis.call("UNLINK", KEY.wait, KEY.prioritized, KEY.delayed, KEY.leases, KEY.completed, KEY.failed, KEY.marker, KEY.meta,
    KEY.events, KEY.id, KEY.fence, KEY.schedulers, KEY.metricsCompleted, KEY.metricsFailed, KEY.groups,
    KEY.groupsReady, KEY.groupsLimited, KEY.workers, KEY.workersSeen)
-- The expiry deadlines (built from the base like group keys; only job ids, all deleted above).
redis.call("UNLINK", base .. "expiry")
return {deleted, 1}
