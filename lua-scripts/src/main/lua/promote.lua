--[[
  promote: run a delayed job now: move it from delayed to wait (or prioritized) and set its
  delay to 0. It is due now: an expireAfter deadline becomes Redis now + expireAfter (moveExpiry;
  an expireAt one stays). Job keys are built from jobKeyPrefix (same slot).

  KEYS:
    1 wait          LIST    <prefix>:{<queue>}:wait
    2 prioritized   ZSET    <prefix>:{<queue>}:prioritized
    3 delayed       ZSET    <prefix>:{<queue>}:delayed
    4 marker        ZSET    <prefix>:{<queue>}:marker
    5 meta          HASH    <prefix>:{<queue>}:meta  (eventsMaxLength, paused; see readMeta)
    6 events        STREAM  <prefix>:{<queue>}:events
    7 groups         ZSET    <prefix>:{<queue>}:groups  (registry of groups)
    8 groupsReady    ZSET    <prefix>:{<queue>}:groups:ready  (groups that may run, by fair-queueing tag)
    9 groupsLimited  ZSET    <prefix>:{<queue>}:groups:limited  (rate-limited groups, by release time)
  ARGV:
    1 jobKeyPrefix  <prefix>:{<queue>}:job:
    2 jobId         the job to promote
  Returns:
    0 promoted; -1 job not found; -5 job is not delayed
  Events:
    waiting (prev = delayed)
]]
--- @include "pushReady"
--- @include "signalWorkers"
--- @include "emitEvent"
--- @include "addExpiry"

local q = {
  groups = KEY.groups, groupsReady = KEY.groupsReady, groupsLimited = KEY.groupsLimited,
  wait = KEY.wait, prioritized = KEY.prioritized, delayed = KEY.delayed, marker = KEY.marker, meta = KEY.meta,
  events = KEY.events, jobPrefix = ARG.jobKeyPrefix
}
local jobId = ARG.jobId
local jobKey = q.jobPrefix .. jobId
if redis.call("ZREM", q.delayed, jobId) == 0 then
  if redis.call("EXISTS", jobKey) == 0 then
    return -1
  end
  return -5
end
redis.call("HSET", jobKey, "delay", 0)
moveExpiry(q, jobId, 0)
local ready = redis.call("HMGET", jobKey, "priority", "grp")
pushReady(q, jobId, tonumber(ready[1]) or 0, false, ready[2])
signalWorkers(q, 0)
emitEvent(q, "waiting", jobId, "prev", "delayed")
return 0
