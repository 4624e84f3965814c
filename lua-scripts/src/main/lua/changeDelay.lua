--[[
  changeDelay: a delayed job gets a new due time, now + delayMs (score and sequence as addDelayed
  gives them; workers are woken when it becomes the earliest delayed job). delayMs 0 runs it now,
  as promote does: to wait, prioritized or its group (pushReady; while the queue is paused it
  waits there unsignalled, like an add). The job's delay field is set to delayMs. An expireAfter
  deadline moves with the due time (moveExpiry: Redis now + delayMs + expireAfter); an expireAt
  one stays. Anything but a
  delayed job is refused and nothing is written. Job keys are built from jobKeyPrefix (same slot).

  KEYS:
    1 wait          LIST    <prefix>:{<queue>}:wait
    2 prioritized   ZSET    <prefix>:{<queue>}:prioritized
    3 delayed       ZSET    <prefix>:{<queue>}:delayed
    4 leases        ZSET    <prefix>:{<queue>}:leases  (the active jobs; for the refusal's state)
    5 completed     ZSET    <prefix>:{<queue>}:completed
    6 failed        ZSET    <prefix>:{<queue>}:failed
    7 marker        ZSET    <prefix>:{<queue>}:marker
    8 meta          HASH    <prefix>:{<queue>}:meta  (eventsMaxLength, paused, seq; see readMeta)
    9 events        STREAM  <prefix>:{<queue>}:events
    10 groups        ZSET    <prefix>:{<queue>}:groups  (registry of groups)
    11 groupsReady   ZSET    <prefix>:{<queue>}:groups:ready  (groups that may run, by fair-queueing tag)
    12 groupsLimited ZSET    <prefix>:{<queue>}:groups:limited  (rate-limited groups, by release time)
  ARGV:
    1 jobKeyPrefix  <prefix>:{<queue>}:job:
    2 now           epoch millis
    3 jobId         the job
    4 delayMs       the new delay from now, >= 0 (0 = run now)
  Returns:
    {0, state} changed: state is where the job is now (delayed | waiting | prioritized);
    {-1} job not found; {-5, state} the job is not delayed (state: jobState's label)
  Events:
    delayChanged (delay, due), then waiting (prev = delayed) when delayMs is 0
]]
--- @include "jobState"
--- @include "addDelayed"
--- @include "pushReady"
--- @include "signalWorkers"
--- @include "emitEvent"
--- @include "intText"
--- @include "addExpiry"

local q = {
  groups = KEY.groups, groupsReady = KEY.groupsReady, groupsLimited = KEY.groupsLimited,
  wait = KEY.wait, prioritized = KEY.prioritized, delayed = KEY.delayed, leases = KEY.leases,
  completed = KEY.completed, failed = KEY.failed, marker = KEY.marker, meta = KEY.meta, events = KEY.events,
  jobPrefix = ARG.jobKeyPrefix, now = tonumber(ARG.now), nowText = ARG.now
}
local jobId, delayMs = ARG.jobId, tonumber(ARG.delayMs)
local jobKey = q.jobPrefix .. jobId
if not redis.call("ZSCORE", q.delayed, jobId) then
  if redis.call("EXISTS", jobKey) == 0 then
    return {-1}
  end
  return {-5, jobState(q, jobId)}
end
local due = q.now + delayMs
redis.call("HSET", jobKey, "delay", ARG.delayMs)
moveExpiry(q, jobId, delayMs)
if delayMs > 0 then
  addDelayed(q, jobId, due)
  emitEvent(q, "delayChanged", jobId, "delay", ARG.delayMs, "due", intText(due))
  return {0, "delayed"}
end
redis.call("ZREM", q.delayed, jobId)
local ready = redis.call("HMGET", jobKey, "priority", "grp")
local state = pushReady(q, jobId, tonumber(ready[1]) or 0, false, ready[2])
signalWorkers(q, 0)
emitEvent(q, "delayChanged", jobId, "delay", "0", "due", ARG.now)
emitEvent(q, "waiting", jobId, "prev", "delayed")
return {0, state}
