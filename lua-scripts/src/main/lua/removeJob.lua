--[[
  removeJob: delete a job in any state, with its logs, unless it is active and a worker still
  holds its lock (its lease has not expired on Redis's clock; an active job whose lease has
  lapsed can be removed). Its deduplication key is
  released (releaseDeduplication, also in ttl mode); a job removed before it started leaves the
  expiry set (dropExpiry, when it has a deadline: field xp). A flow child removed before it ended counts
  as failed for its parents with reason "removed" (notifyParent); a flow parent's children lists
  go with it (removeJobData; cancelling its children is the caller's, Queue.remove).
  Job keys are built from jobKeyPrefix (same slot).

  KEYS:
    1 wait          LIST    <prefix>:{<queue>}:wait
    2 prioritized   ZSET    <prefix>:{<queue>}:prioritized
    3 delayed       ZSET    <prefix>:{<queue>}:delayed
    4 leases        ZSET    <prefix>:{<queue>}:leases  (the active jobs)
    5 completed     ZSET    <prefix>:{<queue>}:completed
    6 failed        ZSET    <prefix>:{<queue>}:failed
    7 events        STREAM  <prefix>:{<queue>}:events
    8 meta          HASH    <prefix>:{<queue>}:meta  (eventsMaxLength)
    9 groups         ZSET    <prefix>:{<queue>}:groups  (registry of groups)
    10 groupsReady   ZSET    <prefix>:{<queue>}:groups:ready  (groups that may run, by fair-queueing tag)
    11 groupsLimited ZSET    <prefix>:{<queue>}:groups:limited  (rate-limited groups, by release time)
    12 marker       ZSET    <prefix>:{<queue>}:marker  (a freed group slot wakes workers)
    13 waitingChildren ZSET <prefix>:{<queue>}:waiting-children
    14 flowOutbox   LIST    <prefix>:{<queue>}:flow:outbox
    15 metricsFailed LIST   <prefix>:{<queue>}:metrics:failed  (a parent failed by the removed child)
    16 id           STRING  <prefix>:{<queue>}:id  (endDeduplication of such a parent)
  ARGV:
    1 jobKeyPrefix  <prefix>:{<queue>}:job:
    2 jobId         the job to remove
  Returns:
    1 removed; -1 job not found; -6 job is locked by a worker
  Events:
    removed (prev = the state it was in); for a flow child, notifyParent's (a parent in this slot:
    failed, waiting or delayed)
]]
--- @include "removeJobData"
--- @include "emitEvent"
--- @include "releaseGroupSlot"
--- @include "groups"
--- @include "releaseDeduplication"
--- @include "redisNowMs"
--- @include "notifyParent"
--- @include "dropExpiry"

local q = {
  groups = KEY.groups, groupsReady = KEY.groupsReady, groupsLimited = KEY.groupsLimited,
  events = KEY.events, meta = KEY.meta, marker = KEY.marker, jobPrefix = ARG.jobKeyPrefix,
  wait = KEY.wait, prioritized = KEY.prioritized, delayed = KEY.delayed, failed = KEY.failed,
  waitingChildren = KEY.waitingChildren, flowOutbox = KEY.flowOutbox,
  metrics = { failed = KEY.metricsFailed }, id = KEY.id
}
local jobId = ARG.jobId
local jobKey = q.jobPrefix .. jobId
if redis.call("EXISTS", jobKey) == 0 then
  return -1
end
local lease = redis.call("ZSCORE", KEY.leases, jobId)
if lease and tonumber(lease) > redisNowMs(q) then
  return -6
end
-- Sorted sets first: O(log n); the wait list only when the id was in none of them.
local prev
local zsets = {{KEY.completed, "completed"}, {KEY.failed, "failed"}, {KEY.delayed, "delayed"}, {KEY.prioritized, "prioritized"},
  {KEY.leases, "active"}, {KEY.waitingChildren, "waiting-children"}}
for _, entry in ipairs(zsets) do
  if redis.call("ZREM", entry[1], jobId) == 1 then
    prev = entry[2]
    break
  end
end
local fields = redis.call("HMGET", jobKey, "grp", "dedupId", "par", "xp")
local group = fields[1]
if prev == "active" and group then
  releaseGroupSlot(q, jobId, group)
elseif not prev and group then
  local jobsKey, stateKey = groups(q, group)
  if redis.call("ZREM", jobsKey, jobId) == 1 then
    prev = "waiting"
    redis.call("HINCRBY", q.meta, "gout", 1)
    if redis.call("EXISTS", jobsKey) == 0 then
      groups(q).forget(q, group, stateKey)
    end
  end
end
if not prev then
  if redis.call("LREM", KEY.wait, 0, jobId) > 0 then
    prev = "waiting"
  else
    prev = "unknown"
  end
end
releaseDeduplication(q, jobId, fields[2])
if fields[4] and prev ~= "completed" and prev ~= "failed" and prev ~= "active" then
  -- Removed before it started: its expiry deadline goes with it.
  dropExpiry(q, jobId)
end
if fields[3] and prev ~= "completed" and prev ~= "failed" then
  notifyParent(q, jobId, fields[3], "failed", "removed")
end
removeJobData(q.jobPrefix, jobId)
emitEvent(q, "removed", jobId, "prev", prev)
return 1
