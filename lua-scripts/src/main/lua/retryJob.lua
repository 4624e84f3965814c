--[[
  retryJob: run a finished job again: move it from failed (or completed) back to wait (or
  prioritized) with a fresh set of attempts: attemptsMade, stalledCount, finishedOn,
  failedReason and returnValue are reset; the stacktrace history is kept.
  Job keys are built from jobKeyPrefix (same slot).

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
    2 jobId         the job to retry
    3 prev          label of the source state, for the event ("failed" or "completed")
  Returns:
    0 retried; -1 job not found; -5 job is not in the source state
  Events:
    waiting (prev)
]]
--- @include "retryFinishedJob"

local q = {
  groups = KEY.groups, groupsReady = KEY.groupsReady, groupsLimited = KEY.groupsLimited,
  wait = KEY.wait, prioritized = KEY.prioritized, marker = KEY.marker, meta = KEY.meta, events = KEY.events,
  jobPrefix = ARG.jobKeyPrefix
}
local jobId = ARG.jobId
if redis.call("ZREM", KEY.source, jobId) == 0 then
  if redis.call("EXISTS", q.jobPrefix .. jobId) == 0 then
    return -1
  end
  return -5
end
retryFinishedJob(q, jobId, ARG.prev)
return 0
