--[[
  retryJobs: run up to `limit` failed (or completed) jobs again, oldest finished first, each with
  a fresh set of attempts exactly as retryJob does; the caller loops in chunks. An id without a
  job hash is dropped from the set, not retried. Job keys are built from jobKeyPrefix (same slot).

  KEYS:
    1 source        ZSET    <prefix>:{<queue>}:failed or <prefix>:{<queue>}:completed
    2 wait          LIST    <prefix>:{<queue>}:wait
    3 prioritized   ZSET    <prefix>:{<queue>}:prioritized
    4 marker        ZSET    <prefix>:{<queue>}:marker
    5 meta          HASH    <prefix>:{<queue>}:meta  (eventsMaxLength, paused; see readMeta)
    6 events        STREAM  <prefix>:{<queue>}:events
    7 groups         ZSET    <prefix>:{<queue>}:groups  (registry of groups)
    8 groupsReady    ZSET    <prefix>:{<queue>}:groups:ready  (groups that may run, by fair-queueing tag)
    9 groupsLimited  ZSET    <prefix>:{<queue>}:groups:limited  (rate-limited groups, by release time)
  ARGV:
    1 jobKeyPrefix  <prefix>:{<queue>}:job:
    2 prev          label of the source state, for the events ("failed" or "completed")
    3 limit         max jobs taken from the source in this call
  Returns:
    {retried, taken}: jobs retried, and ids taken from the source (retried + dropped)
  Events:
    waiting (prev) per job
]]
--- @include "retryFinishedJob"

local q = {
  groups = KEY.groups, groupsReady = KEY.groupsReady, groupsLimited = KEY.groupsLimited,
  wait = KEY.wait, prioritized = KEY.prioritized, marker = KEY.marker, meta = KEY.meta, events = KEY.events,
  jobPrefix = ARG.jobKeyPrefix
}
local ids = redis.call("ZRANGE", KEY.source, 0, tonumber(ARG.limit) - 1)
if #ids == 0 then
  return {0, 0}
end
redis.call("ZREMRANGEBYRANK", KEY.source, 0, #ids - 1)
local retried = 0
for _, id in ipairs(ids) do
  if redis.call("EXISTS", q.jobPrefix .. id) == 1 then
    retryFinishedJob(q, id, ARG.prev)
    retried = retried + 1
  end
end
return {retried, #ids}
