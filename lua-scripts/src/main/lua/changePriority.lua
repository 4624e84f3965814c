--[[
  changePriority: a ready job (waiting or prioritized) gets a new priority and goes to the back
  of the jobs of that priority. Ungrouped: wait <-> prioritized as 0 / non-0 requires (LREM on
  wait, O(n) in wait's length; a job leaving prioritized for wait queues at its back, like an
  add), workers are woken. Grouped (field grp): re-sorted in its group's ZSET (score as
  pushReady gives it); the group's counts and place do not change. The priority field is set
  (removed for 0). Anything but a ready job is refused and nothing is written.

  KEYS:
    1 wait          LIST    <prefix>:{<queue>}:wait
    2 prioritized   ZSET    <prefix>:{<queue>}:prioritized
    3 delayed       ZSET    <prefix>:{<queue>}:delayed  (for the refusal's state)
    4 leases        ZSET    <prefix>:{<queue>}:leases  (the active jobs; for the refusal's state)
    5 completed     ZSET    <prefix>:{<queue>}:completed
    6 failed        ZSET    <prefix>:{<queue>}:failed
    7 marker        ZSET    <prefix>:{<queue>}:marker
    8 meta          HASH    <prefix>:{<queue>}:meta  (eventsMaxLength, paused, seq; see readMeta)
    9 events        STREAM  <prefix>:{<queue>}:events
    10 groups        ZSET    <prefix>:{<queue>}:groups  (registry of groups; pushReady's, unused here)
    11 groupsReady   ZSET    <prefix>:{<queue>}:groups:ready  (pushReady's, unused here)
    12 groupsLimited ZSET    <prefix>:{<queue>}:groups:limited  (pushReady's, unused here)
  ARGV:
    1 jobKeyPrefix  <prefix>:{<queue>}:job:
    2 jobId         the job
    3 priority      the new priority, 0 (none) to 2^21
  Returns:
    {0, state} changed: state is where the job is now (waiting | prioritized);
    {-1} job not found; {-5, state} the job is not waiting or prioritized (state: jobState's label)
  Events:
    priorityChanged (priority)
]]
--- @include "jobState"
--- @include "groups"
--- @include "pushReady"
--- @include "signalWorkers"
--- @include "emitEvent"

local q = {
  groups = KEY.groups, groupsReady = KEY.groupsReady, groupsLimited = KEY.groupsLimited,
  wait = KEY.wait, prioritized = KEY.prioritized, delayed = KEY.delayed, leases = KEY.leases,
  completed = KEY.completed, failed = KEY.failed, marker = KEY.marker, meta = KEY.meta, events = KEY.events,
  jobPrefix = ARG.jobKeyPrefix
}
local jobId, priority = ARG.jobId, tonumber(ARG.priority)
local jobKey = q.jobPrefix .. jobId
local group = redis.call("HGET", jobKey, "grp")
local state
if group then
  local jobsKey = groups(q, group)
  if redis.call("ZSCORE", jobsKey, jobId) then
    -- To the back of its priority: a new number of the group sequence (gin), gout too, so the
    -- count of grouped ready jobs (gin - gout) stays.
    local seq = redis.call("HINCRBY", q.meta, "gin", 1) % 4294967296
    redis.call("HINCRBY", q.meta, "gout", 1)
    redis.call("ZADD", jobsKey, "XX", priority * 4294967296 + seq, jobId)
    state = "waiting"
  end
elseif redis.call("ZREM", q.prioritized, jobId) == 1 or redis.call("LREM", q.wait, 1, jobId) == 1 then
  state = pushReady(q, jobId, priority, false, nil)
  signalWorkers(q, 0)
end
if not state then
  if redis.call("EXISTS", jobKey) == 0 then
    return {-1}
  end
  return {-5, jobState(q, jobId)}
end
if priority > 0 then
  redis.call("HSET", jobKey, "priority", ARG.priority)
else
  redis.call("HDEL", jobKey, "priority")
end
emitEvent(q, "priorityChanged", jobId, "priority", ARG.priority)
return {0, state}
