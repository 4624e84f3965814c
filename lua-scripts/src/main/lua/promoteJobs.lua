--[[
  promoteJobs: run up to `limit` delayed jobs now, earliest due first (so they keep their order),
  each as promote does: delay set to 0, an expireAfter deadline counted from now (moveExpiry),
  moved to wait (or prioritized); the caller loops in
  chunks. An id without a job hash is dropped, not promoted. Job keys are built from
  jobKeyPrefix (same slot).

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
    2 limit         max jobs taken from delayed in this call
  Returns:
    {promoted, taken}: jobs promoted, and ids taken from delayed (promoted + dropped)
  Events:
    waiting (prev = delayed) per job
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
local ids = redis.call("ZRANGE", q.delayed, 0, tonumber(ARG.limit) - 1)
if #ids == 0 then
  return {0, 0}
end
redis.call("ZREMRANGEBYRANK", q.delayed, 0, #ids - 1)
local promoted = 0
for _, id in ipairs(ids) do
  local jobKey = q.jobPrefix .. id
  if redis.call("EXISTS", jobKey) == 1 then
    redis.call("HSET", jobKey, "delay", 0)
    moveExpiry(q, id, 0)
    local ready = redis.call("HMGET", jobKey, "priority", "grp")
    pushReady(q, id, tonumber(ready[1]) or 0, false, ready[2])
    emitEvent(q, "waiting", id, "prev", "delayed")
    promoted = promoted + 1
  end
end
if promoted > 0 then
  signalWorkers(q, 0)
end
return {promoted, #ids}
