--[[
  cancelJob: cancel a job from any process. A job waiting to run (wait, its group's
  group:<g> - also when the queue or the group is paused -, delayed or prioritized) is taken out
  of its state and ends in failed for good with failedReason "cancelled: <reason>" (failCancelled:
  removeOnFail retention from its opts, the failed metric); a grouped one leaves its group
  (gout + 1, the group forgotten when it has nothing left). An active job only gets the field
  cancel (the reason; the first one stays) in its hash: its worker sees it (checkCancels) and the
  finish or the stall recovery ends it as cancelled. A flow parent waiting for its children is
  cancelled like a waiting job (prev = waiting-children; cancelling its children is the caller's,
  Queue.cancel). A flow child cancelled before it ran tells its parents (failCancelled:
  notifyParent) as any child that fails for good. Job keys are built from jobKeyPrefix (same slot).

  KEYS:
    1 wait          LIST    <prefix>:{<queue>}:wait
    2 prioritized   ZSET    <prefix>:{<queue>}:prioritized
    3 delayed       ZSET    <prefix>:{<queue>}:delayed
    4 leases        ZSET    <prefix>:{<queue>}:leases  (the active jobs)
    5 completed     ZSET    <prefix>:{<queue>}:completed
    6 failed        ZSET    <prefix>:{<queue>}:failed
    7 events        STREAM  <prefix>:{<queue>}:events
    8 meta          HASH    <prefix>:{<queue>}:meta  (eventsMaxLength, mm:/mc:<kind>, gout; see readMeta)
    9 metricsFailed LIST    <prefix>:{<queue>}:metrics:failed  (per-minute counts)
    10 groups        ZSET    <prefix>:{<queue>}:groups  (registry of groups)
    11 groupsReady   ZSET    <prefix>:{<queue>}:groups:ready  (groups that may run, by fair-queueing tag)
    12 groupsLimited ZSET    <prefix>:{<queue>}:groups:limited  (rate-limited groups, by release time)
    13 marker       ZSET    <prefix>:{<queue>}:marker
    14 id           STRING  <prefix>:{<queue>}:id  (a kept deduplicated add becomes a job: endDeduplication)
    15 waitingChildren ZSET <prefix>:{<queue>}:waiting-children  (a flow parent waiting for its children)
    16 flowOutbox   LIST    <prefix>:{<queue>}:flow:outbox
  ARGV:
    1 jobKeyPrefix  <prefix>:{<queue>}:job:
    2 jobId         the job to cancel
    3 reason        why (stored as "cancelled: <reason>")
    4 now           epoch millis (finishedOn, metrics)
  Returns:
    1 cancelled while waiting (or waiting for its children); 2 while delayed; 3 while prioritized; 4 active: cancel requested;
    5 already finished (completed or failed: nothing changed); -1 job not found
  Events:
    failed (failedReason, attemptsMade, prev, cancelled = 1) for a job cancelled before it ran;
    none for an active job
]]
--- @include "failCancelled"
--- @include "groups"

local q = {
  groups = KEY.groups, groupsReady = KEY.groupsReady, groupsLimited = KEY.groupsLimited,
  failed = KEY.failed, events = KEY.events, meta = KEY.meta, marker = KEY.marker,
  wait = KEY.wait, prioritized = KEY.prioritized, delayed = KEY.delayed, id = KEY.id,
  metrics = { failed = KEY.metricsFailed }, jobPrefix = ARG.jobKeyPrefix, now = tonumber(ARG.now),
  waitingChildren = KEY.waitingChildren, flowOutbox = KEY.flowOutbox
}
local jobId, reason = ARG.jobId, ARG.reason
local jobKey = q.jobPrefix .. jobId
if redis.call("EXISTS", jobKey) == 0 then
  return -1
end
if redis.call("ZSCORE", KEY.leases, jobId) then
  redis.call("HSETNX", jobKey, "cancel", reason)
  return 4
end
if redis.call("ZSCORE", KEY.completed, jobId) or redis.call("ZSCORE", KEY.failed, jobId) then
  return 5
end
local prev, code
if redis.call("ZREM", KEY.waitingChildren, jobId) == 1 then
  prev, code = "waiting-children", 1
elseif redis.call("ZREM", KEY.delayed, jobId) == 1 then
  prev, code = "delayed", 2
elseif redis.call("ZREM", KEY.prioritized, jobId) == 1 then
  prev, code = "prioritized", 3
else
  local group = redis.call("HGET", jobKey, "grp")
  if group then
    local jobsKey, stateKey = groups(q, group)
    if redis.call("ZREM", jobsKey, jobId) == 1 then
      prev, code = "waiting", 1
      redis.call("HINCRBY", q.meta, "gout", 1)
      if redis.call("EXISTS", jobsKey) == 0 then
        groups(q).forget(q, group, stateKey)
      end
    end
  end
  if not prev and redis.call("LREM", KEY.wait, 0, jobId) > 0 then
    prev, code = "waiting", 1
  end
end
if not prev then
  return -1
end
failCancelled(q, jobId, reason, nil, prev)
return code
