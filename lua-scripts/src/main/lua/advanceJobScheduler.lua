--[[
  advanceJobScheduler: what a worker does after taking a scheduler's iteration, with times
  computed in Java (Lua has no cron): either store the precomputed following run of the
  pending iteration (when it is still `expectedJobId`), or, for a scheduler marked for repair
  (no pending iteration; expectedJobId ""), create the next iteration at `due`. Conditional
  and idempotent: a late or repeated call changes nothing. Job keys are built from
  jobKeyPrefix (same slot).

  KEYS:
    1 schedulers    ZSET    <prefix>:{<queue>}:schedulers
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
    4 expectedJobId the pending iteration the caller saw ("" = the scheduler awaits repair)
    5 due           repair: due time of the next iteration (epoch ms; 0 = the schedule ended)
    6 following     the run after the pending (or new) iteration (epoch ms; 0 = unknown)
  Returns:
    0 nothing to do; 1 following stored; 2 next iteration created; 3 schedule ended
  Events:
    added (a new iteration)
]]
--- @include "addSchedulerIteration"
--- @include "queueContext"

local q = {
  groups = KEY.groups, groupsReady = KEY.groupsReady, groupsLimited = KEY.groupsLimited,
  schedulers = KEY.schedulers, wait = KEY.wait, prioritized = KEY.prioritized, delayed = KEY.delayed, marker = KEY.marker,
  meta = KEY.meta, events = KEY.events, jobPrefix = ARG.jobKeyPrefix, now = tonumber(ARG.now)
}
queueContext(q)
local sKey, schedulerId, expected = KEY.scheduler, ARG.schedulerId, ARG.expectedJobId
local due, following = tonumber(ARG.due), tonumber(ARG.following)
local current = redis.call("HGET", sKey, "jobId")
if not current then
  return 0
end
if expected ~= "" then
  if current == expected and following > 0 then
    redis.call("HSET", sKey, "following", following)
    return 1
  end
  return 0
end
if current ~= "" or tonumber(redis.call("ZSCORE", q.schedulers, schedulerId)) ~= 0 then
  return 0
end
if addSchedulerIteration(q, schedulerId, due, following) then
  return 2
end
return 3
