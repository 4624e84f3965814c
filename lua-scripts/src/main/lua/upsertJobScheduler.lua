--[[
  upsertJobScheduler: create or update a job scheduler. The same definition again changes
  nothing (idempotent per id, however many producers call it at once); a new definition
  replaces the pending iteration (unless a worker is already running it) with one at firstDue
  (the replaced one leaves the expiry set: dropExpiry).
  Job and other scheduler keys are built from jobKeyPrefix (same slot).

  KEYS:
    1 schedulers    ZSET    <prefix>:{<queue>}:schedulers  (id -> next run; 0 = needs repair, -1 = ended)
    2 scheduler     HASH    <prefix>:{<queue>}:scheduler:<id>
    3 wait          LIST    <prefix>:{<queue>}:wait
    4 prioritized   ZSET    <prefix>:{<queue>}:prioritized
    5 delayed       ZSET    <prefix>:{<queue>}:delayed
    6 marker        ZSET    <prefix>:{<queue>}:marker
    7 meta          HASH    <prefix>:{<queue>}:meta  (eventsMaxLength, paused; see readMeta)
    8 events        STREAM  <prefix>:{<queue>}:events
    9 groups         ZSET    <prefix>:{<queue>}:groups  (registry of groups)
    10 groupsReady   ZSET    <prefix>:{<queue>}:groups:ready  (groups that may run, by fair-queueing tag)
    11 groupsLimited ZSET    <prefix>:{<queue>}:groups:limited  (rate-limited groups, by release time)
  ARGV:
    1 jobKeyPrefix  <prefix>:{<queue>}:job:
    2 now           epoch millis
    3 schedulerId   the scheduler
    4 name          the jobs' name
    5 data          the jobs' data (JSON)
    6 opts          the jobs' options (JSON, "" = defaults)
    7 priority      the jobs' priority (0 = none)
    8 repeat        the schedule (JSON, compared as text for idempotence)
    9  misfire      RUN_ONCE_NOW or SKIP_MISSED
    10 limit        most iterations in all (-1 = no limit)
    11 endAt        no iteration after this (epoch ms, -1 = none)
    12 firstDue     due time of the first iteration (epoch ms; 0 = the schedule has no run)
    13 following    the run after firstDue (epoch ms; 0 = unknown)
    14 owner        the declaring configuration's owner ("" = none): stored as the scheduler's
                    owner, with the definition, also when the definition is unchanged; an upsert
                    without one (the API) clears it. Not part of the definition.
    15 traceContext only when the upsert carries trace headers (tracing): the headers (see
                    TraceHeaders), stored as tc on the scheduler and copied to every iteration it
                    makes (an upsert without it has exactly 14 arguments and stores none; a changed
                    definition without it drops an earlier one). Not part of the definition: the
                    same definition with other headers changes nothing.
  Returns:
    {changed (1 or 0), pending job id or ""}
  Events:
    added (the new iteration), removed (a replaced pending iteration, prev = its state)
]]
--- @include "addSchedulerIteration"
--- @include "removeJobData"
--- @include "emitEvent"
--- @include "queueContext"
--- @include "dropExpiry"

local q = {
  groups = KEY.groups, groupsReady = KEY.groupsReady, groupsLimited = KEY.groupsLimited,
  schedulers = KEY.schedulers, wait = KEY.wait, prioritized = KEY.prioritized, delayed = KEY.delayed, marker = KEY.marker,
  meta = KEY.meta, events = KEY.events, jobPrefix = ARG.jobKeyPrefix, now = tonumber(ARG.now)
}
queueContext(q)
local sKey, schedulerId = KEY.scheduler, ARG.schedulerId
local owner = ARG.owner
local old = redis.call("HMGET", sKey, "name", "data", "opts", "repeat", "jobId", "priority", "tc")
if old[1] and old[1] == ARG.name and old[2] == ARG.data and old[3] == ARG.opts and old[4] == ARG["repeat"]
    and old[6] == ARG.priority then
  if owner == "" then
    redis.call("HDEL", sKey, "owner")
  else
    redis.call("HSET", sKey, "owner", owner)
  end
  return {0, old[5] or ""}
end
if old[5] and old[5] ~= "" then
  local pending = old[5]
  local prev = false
  if redis.call("ZREM", q.delayed, pending) == 1 then
    prev = "delayed"
  elseif redis.call("ZREM", q.prioritized, pending) == 1 then
    prev = "prioritized"
  elseif redis.call("LREM", q.wait, 0, pending) > 0 then
    prev = "waiting"
  end
  if prev then
    dropExpiry(q, pending)
    removeJobData(q.jobPrefix, pending)
    emitEvent(q, "removed", pending, "prev", prev)
  end
end
redis.call("HSET", sKey, "name", ARG.name, "data", ARG.data, "opts", ARG.opts, "priority", ARG.priority, "repeat", ARG["repeat"],
    "misfire", ARG.misfire, "limit", ARG.limit, "endAt", ARG.endAt, "jobId", "")
redis.call("HSETNX", sKey, "iterations", 0)
if owner == "" then
  redis.call("HDEL", sKey, "owner")
else
  redis.call("HSET", sKey, "owner", owner)
end
if ARG.traceContext then
  redis.call("HSET", sKey, "tc", ARG.traceContext)
elseif old[7] then
  redis.call("HDEL", sKey, "tc")
end
local pending = addSchedulerIteration(q, schedulerId, tonumber(ARG.firstDue), tonumber(ARG.following))
return {1, pending or ""}
