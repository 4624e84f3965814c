--[[
  moveToFinished: a worker reports the outcomes of one or more active jobs it holds the locks
  for (a busy worker sends the results that piled up while its previous call was in flight, so
  the per-call costs - script entry, metrics, retention, the fetch's scans - are paid once per
  batch). The worker decided each outcome; each record is checked (acceptFinish) and applied by
  the include of its kind, in order: a rejected one (lock lost) does not stop the others. The
  script only refuses a record or, for a job cancelled while active (field cancel, set by
  cancelJob), turns a retry, a failure, a limited put-back or a step into failed for good with
  failedReason "cancelled: <reason>". Then once per call: settleFinishBatch (leases, set adds,
  retention, metrics), and optionally the next job(s) taken in the same call (see moveToActive).
  Job keys and per-scheduler hashes are built from jobKeyPrefix (same slot); so are the group
  sets (groups(q)), which are not KEYS: a call for a queue without groups passes no argument for
  them (the cost rules hot scripts follow are in docs/adr/0008-lua-cost-rules.md).

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
    12 record...    the finished jobs, one record each, back to back: a kind, then that kind's
         fields (Records:; the script reads FIELD.<kind>.<field>, resolved at load from this header)
         attemptsMade the job's attemptsMade after this attempt; returnValue JSON; reason the failed
         reason; stacktrace one to append ("" = none), stackLimit how many are kept; keepCount
         (-1 = all, 0 = none) and keepAgeMs (-1 = no limit) the retention of the target set (a retry's: of
         failed, for when it is cancelled); group as taken ("" = read it here, "=" = none, "=<g>"); dedupId released
         when the job ends ("" = none); stagedData a step job's data written with the outcome ("" = none);
         startedOn when a taken-ahead job's processor started, written as processedOn, its ahd mark
         cleared ("" = not taken ahead); awaitTtl how long the result is kept for awaiters (keepResult; ""
         = not awaited at take); delayMs the retry's or put-back's delay; dueAt epoch ms a retry ("" = to
         wait now) or step is due; lifo "1" = a retry to wait runs next; scope "queue" or "group".
         "started" says a buffered job's processor started (lock-checked, no outcome returned).
  Records:
    completed: jobId lockToken attemptsMade returnValue keepCount keepAgeMs group dedupId stagedData
      startedOn awaitTtl
    failed: jobId lockToken attemptsMade reason stacktrace stackLimit keepCount keepAgeMs group dedupId
      stagedData startedOn awaitTtl
    retry: jobId lockToken attemptsMade reason stacktrace stackLimit delayMs dueAt lifo group stagedData
      startedOn keepCount keepAgeMs dedupId awaitTtl
    step: jobId lockToken dueAt stagedData group startedOn
    limited: jobId lockToken delayMs scope group startedOn
    started: jobId lockToken
  Returns:
    one flat array: outcomeCount, then one outcome per finished job (none for a "started"
    record), in order: where it went (completed | failed | delayed | waiting | prioritized), or an
    error code for a record that was rejected and changed nothing: -1 job not found, -2 lock
    missing (expired or recovered, or the same job twice in one call), -3 lock held by another
    token. A record whose lock token is the job's finishedLock (written with every accepted
    outcome) was applied by an earlier call whose reply was lost: it changes nothing and answers
    the job's state now (a retried job that another worker took since: waiting). Then the fetch
    as in moveToActive's reply (0, 0, 0, -1, -1, 0 when count = 0).
  Events:
    completed (returnValue; consecutive completed jobs of the call share one entry, see
    landFinished), failed (failedReason, attemptsMade; cancelled = 1 for a cancelled job),
    retrying (attemptsMade, delay, failedReason), waiting (a limited job, prev = active), delayed
    (a step: delay, prev = active), dataUpdated (a record with staged data), plus moveToActive's
    when fetching. After its take, a call that freed slots under a global concurrency wakes one
    idle worker when jobs and room are left (signalCapacity).
]]
--- @include "finishCompleted"
--- @include "finishFailed"
--- @include "finishRetry"
--- @include "finishStep"
--- @include "finishLimited"
--- @include "finishStarted"
--- @include "settleFinishBatch"
--- @include "fetchJobs"
--- @include "limitTake"

local q = {
  wait = KEY.wait, prioritized = KEY.prioritized, delayed = KEY.delayed, leases = KEY.leases,
  failed = KEY.failed, marker = KEY.marker, meta = KEY.meta, events = KEY.events, fence = KEY.fence,
  completed = KEY.completed, id = KEY.id, jobPrefix = ARG.jobKeyPrefix, now = tonumber(ARG.now), nowText = ARG.now,
  metrics = { completed = KEY.metricsCompleted, failed = KEY.metricsFailed }, schedulers = KEY.schedulers,
  finishing = true
}
-- The batch, shared by the outcome includes: outcomes in record order; leases to drop and set adds,
-- one call each (settleFinishBatch); jobs accepted here (a second record for one is rejected, not a
-- repeat); retention policies; consecutive completed events, written as one entry (landFinished).
local b = {outcomes = {}, leaseIds = {}, releasedHere = {}, setAdds = {[q.completed] = {}, [q.failed] = {}},
  finishedCount = {completed = 0, failed = 0}, policies = {}, policySeen = {}, completedIds = {}, returnValues = {}}

local i = ARG_FROM.record
while i <= #ARGV do
  local kind = ARGV[i]
  if kind == "completed" then
    finishCompleted(q, b, i)
    i = i + STRIDE.completed
  elseif kind == "started" then
    finishStarted(q, i)
    i = i + STRIDE.started
  elseif kind == "retry" then
    finishRetry(q, b, i)
    i = i + STRIDE.retry
  elseif kind == "failed" then
    finishFailed(q, b, i)
    i = i + STRIDE.failed
  elseif kind == "step" then
    finishStep(q, b, i)
    i = i + STRIDE.step
  elseif kind == "limited" then
    finishLimited(q, b, i)
    i = i + STRIDE.limited
  else
    return redis.error_reply("moveToFinished: unknown record kind '" .. tostring(kind) .. "' at ARGV " .. i)
  end
end
settleFinishBatch(q, b)

local out = {}
appendCounted(out, b.outcomes)
if tonumber(ARG.count) > 0 or tonumber(ARG.ahead) > 0 then
  fetchJobs(q, readFetchArgs(ARG), out)
else
  for _, v in ipairs({0, 0, 0, -1, -1, 0}) do
    out[#out + 1] = v
  end
end
if #b.leaseIds > 0 then
  signalCapacity(q)
end
return out
