--[[
  moveToFinished: a worker reports the outcome of an active job it holds the lock for.
  Completed: to completed (or deleted when keepCount is 0), retention applied.
  Failed: attemptsMade + 1, failedReason and the stacktrace (a capped JSON array) recorded; then
  to failed when unrecoverable or attempts are exhausted (retention applied), else retried: to
  delayed after backoffMs, or to wait when backoffMs is 0. Optionally takes the next job(s) in
  the same call (see moveToActive). Job keys are built from jobKeyPrefix (same slot).

  KEYS:
    1 wait          LIST    <prefix>:{<queue>}:wait
    2 prioritized   ZSET    <prefix>:{<queue>}:prioritized
    3 delayed       ZSET    <prefix>:{<queue>}:delayed
    4 active        LIST    <prefix>:{<queue>}:active
    5 leases        ZSET    <prefix>:{<queue>}:leases
    6 failed        ZSET    <prefix>:{<queue>}:failed
    7 marker        ZSET    <prefix>:{<queue>}:marker
    8 meta          HASH    <prefix>:{<queue>}:meta
    9 events        STREAM  <prefix>:{<queue>}:events
    10 fence        STRING  <prefix>:{<queue>}:fence
    11 completed    ZSET    <prefix>:{<queue>}:completed
    12 metricsCompleted LIST <prefix>:{<queue>}:metrics:completed  (per-minute counts)
    13 metricsFailed  LIST  <prefix>:{<queue>}:metrics:failed  (per-minute counts)
  ARGV:
    1 jobKeyPrefix  <prefix>:{<queue>}:job:
    2 now           epoch millis
    3 eventsMaxLen  approximate cap of the events stream
    4 count         next jobs to take in the same call (0 = none); 5-11 as in moveToActive
    5 token         worker token for the next jobs
    6 lockMs        lock duration in millis
    7 workerName    processedBy for the next jobs
    8 promoteLimit  max delayed jobs promoted
    9 stalledLimit  max expired leases examined
    10 maxStalled   stalled-count limit
    11 cleanLimit   janitor batch (0 = skip)
    12 jobId        the finished job
    13 lockToken    the lock token the worker holds for it
    14 outcome      "completed" or "failed"
    15 value        completed: return value (JSON); failed: failedReason
    16 stacktrace   failed: one stack trace to append ("" = none)
    17 stackLimit   how many stack traces to keep (oldest dropped)
    18 attempts     the job's max attempts
    19 backoffMs    retry delay in millis (0 = straight back to wait)
    20 unrecoverable  "1" = fail now whatever attempts are left
    21 lifo         "1" = a retry to wait runs next
    22 keepCount    retention of the target set: max jobs kept (-1 = all, 0 = none)
    23 keepAgeMs    retention: max age in millis (-1 = no limit)
  Returns:
    {state, jobs, nextDelayedDue, nextLeaseExpiry, recoveredIds, stalledFailedIds,
    schedulerUpdates}: state = completed | failed | delayed | waiting | prioritized (where the
    job went); the rest as in moveToActive ({}, -1, -1, {}, {}, {} when count = 0). Errors: -1 job not found, -2 lock missing, -3 lock held by another token
  Events:
    completed (returnValue), failed (failedReason, attemptsMade), retrying (attemptsMade,
    delay, failedReason), plus moveToActive's when fetching
]]
--- @include "checkLock"
--- @include "fetchJobs"
--- @include "addDelayed"
--- @include "applyRetention"
--- @include "recordMetric"

local q = {
  wait = KEYS[1], prioritized = KEYS[2], delayed = KEYS[3], active = KEYS[4], leases = KEYS[5],
  failed = KEYS[6], marker = KEYS[7], meta = KEYS[8], events = KEYS[9], fence = KEYS[10],
  completed = KEYS[11], jobPrefix = ARGV[1], now = tonumber(ARGV[2]), maxLen = ARGV[3],
  metrics = { completed = KEYS[12], failed = KEYS[13] }
}
local jobId, lockToken, outcome, value = ARGV[12], ARGV[13], ARGV[14], ARGV[15]
local jobKey = q.jobPrefix .. jobId
local lockKey = jobKey .. ":lock"
local retentionBatch = 1000

local lockCheck = checkLock(jobKey, lockToken)
if lockCheck < 0 then
  return lockCheck
end

redis.call("DEL", lockKey)
redis.call("ZREM", q.leases, jobId)
redis.call("LREM", q.active, -1, jobId)
local attemptsMade = redis.call("HINCRBY", jobKey, "attemptsMade", 1)
local keepCount, keepAgeMs = tonumber(ARGV[22]), tonumber(ARGV[23])

local function finish(setKey, event, ...)
  recordMetric(q, event)
  if keepCount == 0 then
    removeJobData(q.jobPrefix, jobId)
  else
    redis.call("ZADD", setKey, q.now, jobId)
    applyRetention(setKey, q.jobPrefix, q.now, keepCount, keepAgeMs, retentionBatch)
  end
  emitEvent(q, event, jobId, ...)
end

local state
if outcome == "completed" then
  redis.call("HSET", jobKey, "finishedOn", q.now, "returnValue", value)
  finish(q.completed, "completed", "returnValue", value)
  state = "completed"
else
  redis.call("HSET", jobKey, "failedReason", value)
  local stackLimit = tonumber(ARGV[17])
  if ARGV[16] ~= "" and stackLimit > 0 then
    local stored = redis.call("HGET", jobKey, "stacktrace")
    local traces = stored and cjson.decode(stored) or {}
    traces[#traces + 1] = ARGV[16]
    while #traces > stackLimit do
      table.remove(traces, 1)
    end
    redis.call("HSET", jobKey, "stacktrace", cjson.encode(traces))
  end
  local backoffMs = tonumber(ARGV[19])
  if ARGV[20] == "1" or attemptsMade >= tonumber(ARGV[18]) then
    redis.call("HSET", jobKey, "finishedOn", q.now)
    finish(q.failed, "failed", "failedReason", value, "attemptsMade", attemptsMade)
    state = "failed"
  elseif backoffMs > 0 then
    addDelayed(q, jobId, q.now + backoffMs)
    emitEvent(q, "retrying", jobId, "attemptsMade", attemptsMade, "delay", backoffMs, "failedReason", value)
    state = "delayed"
  else
    local priority = tonumber(redis.call("HGET", jobKey, "priority")) or 0
    state = pushReady(q, jobId, priority, ARGV[21] == "1")
    signalWorkers(q, 0)
    emitEvent(q, "retrying", jobId, "attemptsMade", attemptsMade, "delay", 0, "failedReason", value)
  end
end

if tonumber(ARGV[4]) > 0 then
  local fetched = fetchJobs(q, readFetchArgs(4))
  return {state, fetched[1], fetched[2], fetched[3], fetched[4], fetched[5], fetched[6]}
end
return {state, {}, -1, -1, {}, {}, {}}
