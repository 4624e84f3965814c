--[[
  moveToFinished: a worker reports the outcomes of one or more active jobs it holds the locks
  for (a busy worker sends the results that piled up while its previous call was in flight, so
  the per-call costs - script entry, metrics, retention, the fetch's scans - are paid once per
  batch). Each result is checked and applied on its own, in order: a rejected one (lock lost)
  does not stop the others.
  Completed: atm (attemptsMade) + 1, finishedOn, to completed (or deleted when keepCount is 0),
  retention applied; a return value of
  JSON null is not stored in the job hash (it stays lean; the completed event carries it).
  Retention runs once per call for each distinct (set, keepCount, keepAgeMs) in the batch, in order
  of first appearance, after all of the batch's jobs are in their sets.
  A job cancelled while active (field cancel, set by cancelJob) that fails, times out or is
  limited is failed for good with failedReason "cancelled: <reason>" (failed event with
  cancelled = 1); a completion stands (the completed path does not read cancel).
  Failed: atm (attemptsMade) + 1, failedReason and the stacktrace (a capped JSON array) recorded; then
  to failed when unrecoverable or attempts are exhausted (retention applied), else retried: to
  delayed after backoffMs, or to wait when backoffMs is 0. Optionally takes the next job(s) in
  the same call (see moveToActive). Job keys and
  per-scheduler hashes (<prefix>:{<queue>}:scheduler:<id>, from the job prefix with scheduler: for job:)
  are built from jobKeyPrefix (same slot).
  The group sets (groups, groups:ready, groups:limited) are not KEYS: groups(q) builds them from
  jobKeyPrefix (same slot) when a group is involved, so a call for a queue without groups passes
  no argument for them (each key argument costs Redis ~2,000 instructions per call; the cost rules hot
  scripts follow are in docs/adr/0008-lua-cost-rules.md).

  KEYS:
    1 wait          LIST    <prefix>:{<queue>}:wait
    2 prioritized   ZSET    <prefix>:{<queue>}:prioritized
    3 delayed       ZSET    <prefix>:{<queue>}:delayed
    4 leases        ZSET    <prefix>:{<queue>}:leases  (the active jobs, scored by lock expiry)
    5 failed        ZSET    <prefix>:{<queue>}:failed
    6 marker        ZSET    <prefix>:{<queue>}:marker
    7 meta          HASH    <prefix>:{<queue>}:meta  (eventsMaxLength, paused, mm:/mc:<kind>; see readMeta)
    8 events        STREAM  <prefix>:{<queue>}:events
    9 fence         STRING  <prefix>:{<queue>}:fence
    10 completed    ZSET    <prefix>:{<queue>}:completed
    11 metricsCompleted LIST <prefix>:{<queue>}:metrics:completed  (per-minute counts)
    12 metricsFailed  LIST  <prefix>:{<queue>}:metrics:failed  (per-minute counts)
    13 schedulers   ZSET    <prefix>:{<queue>}:schedulers  (job scheduler ids by next run: advanced on take, janitor)
    14 id           STRING  <prefix>:{<queue>}:id  (a kept deduplicated add becomes a job: endDeduplication)
  ARGV:
    1 jobKeyPrefix  <prefix>:{<queue>}:job:
    2 now           epoch millis
    3 count         next jobs to take in the same call (0 = none); 4-11 as in moveToActive
    4 token         worker token for the next jobs
    5 lockMs        lock duration in millis
    6 workerName    stored as pb (processedBy) on the next jobs; "" = not stored
    7 promoteLimit  max delayed jobs promoted
    8 stalledLimit  max expired leases examined
    9  maxStalled   stalled-count limit
    10 cleanLimit   janitor batch (0 = skip)
    11 ahead        jobs to take beyond count, buffered by the worker (take-ahead; see moveToActive)
    12 record...    the finished jobs, one record each, back to back; a record has 8 values for a
         limited job, 9 for a completed one or a step and 15 for a failed one (completed jobs need
         no retry settings); a "completed+data" or "failed+data" record (a step job's staged data,
         written with the end of the attempt, then as "completed" / "failed") has one more value
         at its end: the data (JSON):
         +0 jobId        the finished job
         +1 lockToken    the lock token the worker holds for it
         +2 outcome      "completed", "failed" or "limited" (the processor threw RateLimitedException:
                    see putBackLimited; value is the delay in ms, keepCount the scope "queue" or
                    "group", attemptsMade and keepAgeMs are "") or "step" (the processor asked
                    for a delay: see stepJob; value is the due time in epoch ms, attemptsMade,
                    keepCount and keepAgeMs are "", after the group a 9th value is the staged data, "" = none);
                    "completed@<ttlMs>" / "failed@<ttlMs>" (also "...+data@<ttlMs>") for a job whose
                    awaited field the worker read at take: its result is kept in result:<id> for
                    ttlMs (keepResult); "<outcome>~<startedOn>" (before any "@<ttlMs>") for a
                    job the worker took ahead: startedOn (epoch ms) is when its processor really
                    started, written as processedOn (completed, failed), and its ahd mark is
                    cleared; "<outcome>^" (last of all) for a job with a parent in a flow (its par
                    field, read at take): a completed or failed-for-good end tells the parents
                    (notifyParent: in this slot at once, else through flow:outbox); a job without
                    the suffix does no flow work; "started" (a record of 3 values: jobId, lockToken, "started") says a
                    buffered job's processor started: lock-checked, HDEL ahd, no outcome returned
         +3 attemptsMade the job's attemptsMade when the worker took it ("" = read it here); the
                    worker holds the lock, so nothing else changed it since
         +4 value        completed: return value (JSON); failed: failedReason
         +5 keepCount    retention of the target set: max jobs kept (-1 = all, 0 = none)
         +6 keepAgeMs    retention: max age in millis (-1 = no limit)
         +7 group        the job's group (field grp) as the worker took it: "=" followed by the group
                    ("=" alone: no group), or "" = read it here; the worker holds the lock, so
                    it is the job's group now (saves the release of the group slot a read)
         failed records only:
         +8 stacktrace   one stack trace to append ("" = none)
         +9 stackLimit   how many stack traces to keep (oldest dropped)
         +10 attempts     the job's max attempts
         +11 backoffMs    retry delay in millis (0 = straight back to wait)
         +12 unrecoverable  "1" = fail now whatever attempts are left
         +13 lifo         "1" = a retry to wait runs next
         last value of a completed (+8) or failed (+14) record:
         dedupId         the job's deduplication id as the worker read it at take ("" = none): a job
                    that completes or fails for good releases it (endDeduplication), with no
                    read for a job without one
  Returns:
    one flat array: outcomeCount, then one outcome per finished job (none for a "started"
    record), in order: where it went
    (completed | failed | delayed | waiting | prioritized; a limited job: waiting | prioritized;
    a step: delayed),
    or an error code for a result that
    was rejected and changed nothing: -1 job not found, -2 lock missing (expired or recovered,
    or the same job twice in one call), -3 lock held by another token. A record whose lock
    token is the job's finishedLock (written with every accepted outcome) was applied by an
    earlier call whose reply was lost (a worker sends a call again after a dropped
    connection): it changes nothing and answers the job's state now instead (a retried job that
    another worker took since: waiting). Then the fetch as in
    moveToActive's reply (0, 0, 0, -1, -1, 0 when count = 0).
  Awaited jobs (keepResult): a completed or failed-for-good job that is awaited (outcome suffix,
  or, while meta's awaits > 0, its awaited field) gets result:<id> (JSON, PX ttl), also when
  retention deletes it.
  Events:
    completed (returnValue; consecutive completed jobs of the call share one entry, see
    emitEvents), failed (failedReason, attemptsMade; cancelled = 1 for a cancelled job), retrying (attemptsMade,
    delay, failedReason), waiting (a limited job, prev = active), delayed (a step: delay,
    prev = active), dataUpdated (a record with staged data), plus moveToActive's when
    fetching; for a job with a parent in the same slot, notifyParent's (the parent: failed, waiting
    or delayed). After its take, a call that freed slots under a global concurrency wakes one idle
    worker when jobs and room are left (signalCapacity).
]]
--- @include "checkLock"
--- @include "fetchJobs"
--- @include "addDelayed"
--- @include "applyRetention"
--- @include "recordMetric"
--- @include "intText"
--- @include "emitEvent"
--- @include "pushReady"
--- @include "removeJobData"
--- @include "signalWorkers"
--- @include "putBackLimited"
--- @include "limitTake"
--- @include "releaseGroupSlot"
--- @include "failCancelled"
--- @include "endDeduplication"
--- @include "stepJob"
--- @include "keepResult"
--- @include "notifyParent"

local q = {
  wait = KEY.wait, prioritized = KEY.prioritized, delayed = KEY.delayed, leases = KEY.leases,
  failed = KEY.failed, marker = KEY.marker, meta = KEY.meta, events = KEY.events, fence = KEY.fence,
  completed = KEY.completed, id = KEY.id, jobPrefix = ARG.jobKeyPrefix, now = tonumber(ARG.now), nowText = ARG.now,
  metrics = { completed = KEY.metricsCompleted, failed = KEY.metricsFailed }, schedulers = KEY.schedulers,
  finishing = true
}
local retentionBatch = 1000
local outcomes = {}
-- Deferred to one call each per batch: leases to drop (a held lock means the job is in leases,
-- the set of active jobs), finished-set adds. The lock field goes at once (releaseLock).
local leaseIds = {}
-- Jobs whose record this call accepted: a second record for one of them is rejected, not a repeat.
local releasedHere = {}
local setAdds = {[q.completed] = {}, [q.failed] = {}}
local finishedCount = {completed = 0, failed = 0}
local policies, policySeen = {}, {}
-- Consecutive completed events of the call go in one stream entry (emitEvents).
local completedIds, returnValues = {}, {}
-- The current record's kept-result ttl (nil = nobody awaits the job; see keepResult).
local awaitTtl
-- The current record's job has a parent in a flow (outcome suffix "^"): its end tells the parents.
local hasParent
-- A job taken ahead (outcome suffix ~<startedOn>): when its processor really started (nil for any
-- other job), written as processedOn with the cleared mark in the HSET its outcome sends anyway.
local startedOn

-- Written before any other event of the call, so the stream keeps the order of a sequence of calls.
local function flushCompleted()
  if #completedIds > 0 then
    emitEvents(q, "completed", completedIds, "returnValue", returnValues)
    completedIds, returnValues = {}, {}
  end
end

-- i: the record's first index in ARGV (its retention arguments are at i + 5 and i + 6).
local function finish(i, setKey, kind, jobId, keepCount, keepAgeMs, ...)
  finishedCount[kind] = finishedCount[kind] + 1
  if keepCount == 0 then
    removeJobData(q.jobPrefix, jobId)
  else
    local adds = setAdds[setKey]
    adds[#adds + 1] = q.nowText
    adds[#adds + 1] = jobId
    -- Keyed by the argument strings: concatenating Lua numbers would format each with printf.
    local policy = setKey .. "|" .. ARGV[i + 5] .. "|" .. ARGV[i + 6]
    if not policySeen[policy] then
      policySeen[policy] = true
      policies[#policies + 1] = {setKey, keepCount, keepAgeMs}
    end
  end
  if kind == "completed" then
    completedIds[#completedIds + 1] = jobId
    returnValues[#returnValues + 1] = ...
  else
    flushCompleted()
    emitEvent(q, kind, jobId, ...)
  end
end

local function fail(i, jobKey, jobId, lockToken, value, attemptsMade, keepCount, keepAgeMs)
  -- Cancelled while active (cancelJob set cancel): failed for good, never retried. Read here,
  -- on the failure path only: a completion costs nothing more.
  local cancel = redis.call("HGET", jobKey, "cancel")
  if cancel then
    value = "cancelled: " .. cancel
  end
  if startedOn then
    redis.call("HSET", jobKey, "atm", attemptsMade, "failedReason", value, "processedOn", startedOn, "ahd", "0",
      "finishedLock", lockToken)
  else
    redis.call("HSET", jobKey, "atm", attemptsMade, "failedReason", value, "finishedLock", lockToken)
  end
  local stackLimit = tonumber(ARGV[i + 9])
  if ARGV[i + 8] ~= "" and stackLimit > 0 then
    local stored = redis.call("HGET", jobKey, "stacktrace")
    local traces = stored and cjson.decode(stored) or {}
    traces[#traces + 1] = ARGV[i + 8]
    while #traces > stackLimit do
      table.remove(traces, 1)
    end
    redis.call("HSET", jobKey, "stacktrace", cjson.encode(traces))
  end
  local backoffMs = tonumber(ARGV[i + 11])
  if cancel then
    redis.call("HSET", jobKey, "finishedOn", q.nowText)
    if awaitTtl then
      keepResult(q, jobId, awaitTtl, "failed", value)
    end
    if hasParent then
      notifyParent(q, jobId, redis.call("HGET", jobKey, "par") or "", "failed", value)
    end
    finish(i, q.failed, "failed", jobId, keepCount, keepAgeMs, "failedReason", value, "attemptsMade", attemptsMade,
      "cancelled", "1")
    endDeduplication(q, jobId, ARGV[i + 14])
    return "failed"
  end
  if ARGV[i + 12] == "1" or tonumber(attemptsMade) >= tonumber(ARGV[i + 10]) then
    redis.call("HSET", jobKey, "finishedOn", q.nowText)
    if awaitTtl then
      keepResult(q, jobId, awaitTtl, "failed", value)
    end
    if hasParent then
      notifyParent(q, jobId, redis.call("HGET", jobKey, "par") or "", "failed", value)
    end
    finish(i, q.failed, "failed", jobId, keepCount, keepAgeMs, "failedReason", value, "attemptsMade", attemptsMade)
    endDeduplication(q, jobId, ARGV[i + 14])
    return "failed"
  elseif backoffMs > 0 then
    addDelayed(q, jobId, q.now + backoffMs)
    flushCompleted()
    emitEvent(q, "retrying", jobId, "attemptsMade", attemptsMade, "delay", backoffMs, "failedReason", value)
    return "delayed"
  end
  local ready = redis.call("HMGET", jobKey, "priority", "grp")
  local state = pushReady(q, jobId, tonumber(ready[1]) or 0, ARGV[i + 13] == "1", ready[2])
  signalWorkers(q, 0)
  flushCompleted()
  emitEvent(q, "retrying", jobId, "attemptsMade", attemptsMade, "delay", 0, "failedReason", value)
  return state
end

-- An accepted record's lock is released before anything else: a second record for the same job
-- in this call is then rejected (-2) as a sequence of calls would reject it.
local function releaseLock(jobKey, jobId)
  redis.call("HDEL", jobKey, "lock")
  leaseIds[#leaseIds + 1] = jobId
  releasedHere[jobId] = true
end

-- The record's group: nil = unknown (releaseGroupSlot reads it), false = none.
local function takenGroup(text)
  if text == "" then
    return nil
  end
  return text ~= "=" and string.sub(text, 2)
end

-- Record lengths by outcome. A "+data" record carries a step job's staged data at its end.
local strides = {completed = 9, limited = 8, step = 9, failed = 15, ["completed+data"] = 10, ["failed+data"] = 16,
  started = 3}
local withData = {["completed+data"] = "completed", ["failed+data"] = "failed"}

local i = ARG_FROM.record
while i <= #ARGV do
  local jobId, lockToken, outcome, value = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 4]
  -- "^" last: the job has a parent in a flow (read at take); only then does its end look for it.
  hasParent = false
  if string.find(outcome, "^", 1, true) then
    hasParent, outcome = true, string.sub(outcome, 1, -2)
  end
  awaitTtl = nil
  local at = string.find(outcome, "@", 1, true)
  if at then
    awaitTtl, outcome = string.sub(outcome, at + 1), string.sub(outcome, 1, at - 1)
  end
  startedOn = nil
  local started = string.find(outcome, "~", 1, true)
  if started then
    startedOn, outcome = string.sub(outcome, started + 1), string.sub(outcome, 1, started - 1)
  end
  local stride = strides[outcome]
  local staged
  if withData[outcome] then
    staged = ARGV[i + stride - 1]
    outcome = withData[outcome]
  end
  local completed = outcome == "completed"
  local jobKey = q.jobPrefix .. jobId
  local check = checkLock(jobKey, lockToken)
  if outcome == "started" then
    -- A buffered job's processor started (take-ahead): a crash from now on counts as a stall.
    -- The lock stays (the job is still active).
    if check == 0 then
      redis.call("HDEL", jobKey, "ahd")
    end
  elseif check < 0 then
    -- The same record sent again (its first call landed but its reply was lost with the
    -- connection): the job remembers the lock token of the attempt that ended it, and the
    -- answer is where the job is now (a retried job another worker took since: waiting).
    -- Inline, not a function: every function a script defines costs each call.
    local repeated = check ~= -1 and not releasedHere[jobId] and redis.call("HGET", jobKey, "finishedLock") == lockToken
    if repeated then
      check = "waiting"
      for _, s in ipairs({{q.completed, "completed"}, {q.failed, "failed"}, {q.delayed, "delayed"},
          {q.prioritized, "prioritized"}}) do
        if redis.call("ZSCORE", s[1], jobId) then
          check = s[2]
          break
        end
      end
    end
    outcomes[#outcomes + 1] = check
  elseif outcome == "limited" or outcome == "step" then
    -- The attempt ends without a result: the job goes back in front (limited) or to delayed (step).
    releaseLock(jobKey, jobId)
    redis.call("HSET", jobKey, "finishedLock", lockToken)
    flushCompleted()
    if started then
      redis.call("HDEL", jobKey, "ahd")
    end
    local cancel = redis.call("HGET", jobKey, "cancel")
    if cancel then
      -- Cancelled while active: failed for good instead (the attempt counts).
      releaseGroupSlot(q, jobId, takenGroup(ARGV[i + 7]))
      failCancelled(q, jobId, cancel, intText(redis.call("HINCRBY", jobKey, "atm", 1)), "active")
      outcomes[#outcomes + 1] = "failed"
    else
      if outcome == "limited" then
        outcomes[#outcomes + 1] = putBackLimited(q, jobId, tonumber(value), ARGV[i + 5])
      else
        outcomes[#outcomes + 1] = stepJob(q, jobId, tonumber(value), ARGV[i + 8])
      end
      -- After the job is back in its group or delayed, so the group is never forgotten in between.
      releaseGroupSlot(q, jobId, takenGroup(ARGV[i + 7]))
    end
  else
    releaseGroupSlot(q, jobId, takenGroup(ARGV[i + 7]))
    releaseLock(jobKey, jobId)
    -- Numbers go to Redis as strings: a Lua number is formatted with printf("%.17g"), which
    -- showed up in profiles of busy workers.
    local attemptsMade
    if ARGV[i + 3] == "" then
      attemptsMade = intText(redis.call("HINCRBY", jobKey, "atm", 1))
    else
      attemptsMade = intText(tonumber(ARGV[i + 3]) + 1)
    end
    local keepCount, keepAgeMs = tonumber(ARGV[i + 5]), tonumber(ARGV[i + 6])
    awaitTtl = awaitedTtl(q, jobKey, awaitTtl)
    if staged then
      -- A step job's last step: its data is written with whatever ends the attempt.
      redis.call("HSET", jobKey, "data", staged)
      flushCompleted()
      emitEvent(q, "dataUpdated", jobId)
    end
    if completed then
      if value == "null" then
        -- A processor that returned nothing: no field (the event still carries it).
        if startedOn then
          redis.call("HSET", jobKey, "atm", attemptsMade, "finishedOn", q.nowText, "processedOn", startedOn, "ahd", "0",
            "finishedLock", lockToken)
        else
          redis.call("HSET", jobKey, "atm", attemptsMade, "finishedOn", q.nowText, "finishedLock", lockToken)
        end
      elseif startedOn then
        redis.call("HSET", jobKey, "atm", attemptsMade, "finishedOn", q.nowText, "returnValue", value,
          "processedOn", startedOn, "ahd", "0", "finishedLock", lockToken)
      else
        redis.call("HSET", jobKey, "atm", attemptsMade, "finishedOn", q.nowText, "returnValue", value,
          "finishedLock", lockToken)
      end
      if awaitTtl then
        keepResult(q, jobId, awaitTtl, "completed", value)
      end
      if hasParent then
        notifyParent(q, jobId, redis.call("HGET", jobKey, "par") or "", "completed", value)
      end
      finish(i, q.completed, "completed", jobId, keepCount, keepAgeMs, value)
      if ARGV[i + 8] ~= "" then
        -- Its completed event first: a kept add's "added" follows it.
        flushCompleted()
        endDeduplication(q, jobId, ARGV[i + 8])
      end
      outcomes[#outcomes + 1] = "completed"
    else
      outcomes[#outcomes + 1] = fail(i, jobKey, jobId, lockToken, value, attemptsMade, keepCount, keepAgeMs)
    end
  end
  i = i + stride
end

-- Before the fetch below, which may take a retried job again.
if #leaseIds > 0 then
  redis.call("ZREM", q.leases, unpack(leaseIds))
end
for _, setKey in ipairs({q.completed, q.failed}) do
  local adds = setAdds[setKey]
  if #adds > 0 then
    redis.call("ZADD", setKey, unpack(adds))
  end
end
flushCompleted()
for _, p in ipairs(policies) do
  applyRetention(p[1], q.jobPrefix, q.now, p[2], p[3], retentionBatch)
end
for _, kind in ipairs({"completed", "failed"}) do
  if finishedCount[kind] > 0 then
    recordMetric(q, kind, finishedCount[kind])
  end
end

local out = {}
appendCounted(out, outcomes)
if tonumber(ARG.count) > 0 or tonumber(ARG.ahead) > 0 then
  fetchJobs(q, readFetchArgs(ARG), out)
  if #leaseIds > 0 then
    signalCapacity(q)
  end
  return out
end
if #leaseIds > 0 then
  signalCapacity(q)
end
out[#out + 1] = 0
out[#out + 1] = 0
out[#out + 1] = 0
out[#out + 1] = -1
out[#out + 1] = -1
out[#out + 1] = 0
return out
