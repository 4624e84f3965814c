--[[
  moveStalledJobsToWait: recover active jobs whose lock has expired, found exactly from the
  lease set (scored by lock expiry): back to the front of wait (or prioritized), or to failed
  with a reason once stalledCount exceeds maxStalled. Examines at most `limit` leases.
  Job keys are built from jobKeyPrefix (same slot).

  KEYS:
    1 wait          LIST    <prefix>:{<queue>}:wait
    2 prioritized   ZSET    <prefix>:{<queue>}:prioritized
    3 leases        ZSET    <prefix>:{<queue>}:leases  (the active jobs, scored by lock expiry)
    4 failed        ZSET    <prefix>:{<queue>}:failed
    5 marker        ZSET    <prefix>:{<queue>}:marker
    6 meta          HASH    <prefix>:{<queue>}:meta  (eventsMaxLength, paused, mm:/mc:<kind>; see readMeta)
    7 events        STREAM  <prefix>:{<queue>}:events
    8 metricsFailed LIST    <prefix>:{<queue>}:metrics:failed  (per-minute counts)
    9 groups         ZSET    <prefix>:{<queue>}:groups  (registry of groups)
    10 groupsReady   ZSET    <prefix>:{<queue>}:groups:ready  (groups that may run, by fair-queueing tag)
    11 groupsLimited ZSET    <prefix>:{<queue>}:groups:limited  (rate-limited groups, by release time)
    12 delayed      ZSET    <prefix>:{<queue>}:delayed  (a kept deduplicated add with a delay: endDeduplication)
    13 id           STRING  <prefix>:{<queue>}:id  (a kept deduplicated add of a job failed as stalled)
  ARGV:
    1 jobKeyPrefix  <prefix>:{<queue>}:job:
    2 now           epoch millis
    3 maxStalled    a job that stalls more often than this fails
    4 limit         max expired leases examined in this call
  Returns:
    {{recovered jobId, ...}, {failed jobId, ...}}
  Events:
    stalled (stalledCount), failed (failedReason, attemptsMade)
]]
--- @include "recoverStalledJobs"

local q = {
  groups = KEY.groups, groupsReady = KEY.groupsReady, groupsLimited = KEY.groupsLimited,
  wait = KEY.wait, prioritized = KEY.prioritized, leases = KEY.leases, failed = KEY.failed,
  marker = KEY.marker, meta = KEY.meta, events = KEY.events, metrics = { failed = KEY.metricsFailed },
  delayed = KEY.delayed, id = KEY.id, jobPrefix = ARG.jobKeyPrefix, now = tonumber(ARG.now)
}
local recovered, failed = recoverStalledJobs(q, tonumber(ARG.maxStalled), ARG.limit)
return {recovered, failed}
