--[[
  promoteJobs: run up to `limit` delayed jobs now, earliest due first (so they keep their order),
  each as promote does: delay set to 0, moved to wait (or prioritized); the caller loops in
  chunks. An id without a job hash is dropped, not promoted. Job keys are built from
  jobKeyPrefix (same slot).

  KEYS:
    1 wait          LIST    <prefix>:{<queue>}:wait
    2 prioritized   ZSET    <prefix>:{<queue>}:prioritized
    3 delayed       ZSET    <prefix>:{<queue>}:delayed
    4 marker        ZSET    <prefix>:{<queue>}:marker
    5 meta          HASH    <prefix>:{<queue>}:meta  (eventsMaxLength, paused; see readMeta)
    6 events        STREAM  <prefix>:{<queue>}:events
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

local q = {
  wait = KEY.wait, prioritized = KEY.prioritized, delayed = KEY.delayed, marker = KEY.marker, meta = KEY.meta,
  events = KEY.events, jobPrefix = ARGV[1]
}
local ids = redis.call("ZRANGE", q.delayed, 0, tonumber(ARGV[2]) - 1)
if #ids == 0 then
  return {0, 0}
end
redis.call("ZREMRANGEBYRANK", q.delayed, 0, #ids - 1)
local promoted = 0
for _, id in ipairs(ids) do
  local jobKey = q.jobPrefix .. id
  if redis.call("EXISTS", jobKey) == 1 then
    redis.call("HSET", jobKey, "delay", 0)
    pushReady(q, id, tonumber(redis.call("HGET", jobKey, "priority")) or 0, false)
    emitEvent(q, "waiting", id, "prev", "delayed")
    promoted = promoted + 1
  end
end
if promoted > 0 then
  signalWorkers(q, 0)
end
return {promoted, #ids}
