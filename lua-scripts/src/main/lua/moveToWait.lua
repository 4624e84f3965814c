--[[
  moveToWait: give back a job a worker took but never started, or one still running at its close
  timeout (the worker is closing): release the lock and return the job to the front of wait (or to
  prioritized) without counting a stall or an attempt made. An unstarted job's start is taken
  back (ats - 1); a cut-off attempt did start and stays counted. Checks the lock token like
  moveToFinished. Clears a taken-ahead job's ahd. An unstarted job with an expiry deadline (field xp) gets it back
  in the expiry ZSET (addExpiry: restoreExpiry), so a job a worker held past its deadline fails as
  expired in the next fetch. Job keys are built from jobKeyPrefix (same slot).

  KEYS:
    1 wait          LIST    <prefix>:{<queue>}:wait
    2 prioritized   ZSET    <prefix>:{<queue>}:prioritized
    3 leases        ZSET    <prefix>:{<queue>}:leases  (the active jobs)
    4 marker        ZSET    <prefix>:{<queue>}:marker
    5 meta          HASH    <prefix>:{<queue>}:meta  (eventsMaxLength, paused; see readMeta)
    6 events        STREAM  <prefix>:{<queue>}:events
    7 groups         ZSET    <prefix>:{<queue>}:groups  (registry of groups)
    8 groupsReady    ZSET    <prefix>:{<queue>}:groups:ready  (groups that may run, by fair-queueing tag)
    9 groupsLimited  ZSET    <prefix>:{<queue>}:groups:limited  (rate-limited groups, by release time)
  ARGV:
    1 jobKeyPrefix  <prefix>:{<queue>}:job:
    2 jobId         the job
    3 lockToken     the token the worker holds
    4 started       "1": the processor had started (a close cut it off), attempts started stay; "0": never started
  Returns:
    0 given back; -1 job not found; -2 lock missing; -3 lock held by another token
  Events:
    waiting (prev = active)
]]
--- @include "checkLock"
--- @include "pushReady"
--- @include "releaseGroupSlot"
--- @include "signalWorkers"
--- @include "emitEvent"
--- @include "restoreExpiry"

local q = {
  groups = KEY.groups, groupsReady = KEY.groupsReady, groupsLimited = KEY.groupsLimited,
  wait = KEY.wait, prioritized = KEY.prioritized, marker = KEY.marker, meta = KEY.meta, events = KEY.events,
  jobPrefix = ARG.jobKeyPrefix
}
local jobId = ARG.jobId
local jobKey = q.jobPrefix .. jobId
local lockCheck = checkLock(jobKey, ARG.lockToken)
if lockCheck < 0 then
  return lockCheck
end
-- The lock goes, and a job taken ahead (take-ahead) leaves active unmarked, started or not.
redis.call("HDEL", jobKey, "lock", "ahd")
redis.call("ZREM", KEY.leases, jobId)
if ARG.started ~= "1" then
  redis.call("HINCRBY", jobKey, "ats", -1)
end
local ready = redis.call("HMGET", jobKey, "priority", "grp", "xp")
if ready[3] and ARG.started ~= "1" and (tonumber(redis.call("HGET", jobKey, "ats")) or 0) <= 0 then
  -- Its first attempt never started: its expiry deadline holds again (expireJobs).
  restoreExpiry(q, jobId, ready[3])
end
releaseGroupSlot(q, jobId, ready[2])
pushReady(q, jobId, tonumber(ready[1]) or 0, true, ready[2])
signalWorkers(q, 0)
emitEvent(q, "waiting", jobId, "prev", "active")
return 0
