--[[
  moveToFinished: a worker reports the outcomes of active jobs it holds the locks for, decided by
  the worker (a busy worker sends those that piled up during its previous call: per-call costs are
  paid once per batch). Each record is lock-checked (acceptFinish) and applied by its kind's
  include, in order; a rejected one does not stop the others. The script only refuses a record, or
  turns a retry, failure, limited put-back, step or wait for children of a job cancelled while active (field cancel)
  into failed for good ("cancelled: <reason>"); so is a wait for children. Then settleFinishBatch, and optionally the next
  jobs taken in the same call (see moveToActive). Job keys, scheduler hashes, group sets, waiting-children
  and a parent's staged children (flow:<flowId>, flows:pending) are built from jobKeyPrefix (same slot; cost rules: docs/adr/0008-lua-cost-rules.md).

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
         Field notes (the kinds' includes say more): attemptsMade counts this attempt; "" means none
         for stacktrace, dedupId, stagedData, startedOn (not taken ahead), awaitTtl (not awaited at
         take) and a retry's dueAt (to wait now); group "" = read it here, "=" = none, "=<g>";
         keepCount -1 = all, keepAgeMs -1 = no age limit (a retry's: failed's, if cancelled);
         parent "1" = the job has a parent in a flow (its par field, read at take): an end tells the
         parents (notifyParent: in this slot at once, else through flow:outbox); "" = no flow work.
         children: the children the processor added (JobContext.addChildren), recorded with the
         outcome (stageChildren: its format; "" = none); a completion or step is not held by them.
         A retry record begins with a failed record's fields and a waitChildren record with a
         step's, in the same order: acceptFailedAttempt and acceptUnusedAttempt read both kinds.
  Records:
    completed: jobId lockToken attemptsMade returnValue keepCount keepAgeMs group dedupId stagedData startedOn awaitTtl
      parent children
    failed: jobId lockToken attemptsMade reason stacktrace stackLimit group stagedData startedOn awaitTtl
      keepCount keepAgeMs dedupId parent
    retry: jobId lockToken attemptsMade reason stacktrace stackLimit group stagedData startedOn awaitTtl
      keepCount keepAgeMs dedupId parent delayMs dueAt lifo
    step: jobId lockToken group startedOn children stagedData dueAt
    waitChildren: jobId lockToken group startedOn children stagedData
    limited: jobId lockToken delayMs scope group startedOn
    started: jobId lockToken
  Returns:
    one flat array: outcomeCount, then per record but "started", in order, where the job went
    (completed | failed | delayed | waiting | prioritized | waiting-children) or, for a rejected record (nothing
    changed), -1 job not found, -2 lock missing (expired, recovered, or the same job twice in one
    call), -3 lock held by another token; a record whose token is the job's finishedLock (its first
    call landed, the reply was lost) answers the job's state now. Then moveToActive's fetch reply
    (0, 0, 0, -1, -1, 0 when count = 0 and ahead = 0).
  Events:
    completed (returnValue; consecutive ones share an entry, see landFinished), failed (failedReason,
    attemptsMade; cancelled = 1), retrying (attemptsMade, delay, failedReason), waiting (limited,
    prev = active), delayed (step: delay, prev = active), waitingChildren (prev = active; or waiting
    when no child is pending), dataUpdated (staged data), for a job with
    a parent in the same slot notifyParent's (the parent: failed, waiting or delayed), plus
    moveToActive's when fetching; a call that freed global slots wakes an idle worker (signalCapacity).
]]
--- @include "finishCompleted"
--- @include "finishFailed"
--- @include "finishRetry"
--- @include "finishStep"
--- @include "finishLimited"
--- @include "finishWaitChildren"
--- @include "finishStarted"
--- @include "settleFinishBatch"
--- @include "fetchJobs"
--- @include "limitTake"

local q = {
  wait = KEY.wait, prioritized = KEY.prioritized, delayed = KEY.delayed, leases = KEY.leases,
  failed = KEY.failed, marker = KEY.marker, meta = KEY.meta, events = KEY.events, fence = KEY.fence,
  completed = KEY.completed, id = KEY.id, jobPrefix = ARG.jobKeyPrefix, now = tonumber(ARG.now), nowText = ARG.now,
  waitingChildren = string.sub(ARG.jobKeyPrefix, 1, #ARG.jobKeyPrefix - 4) .. "waiting-children",
  metrics = { completed = KEY.metricsCompleted, failed = KEY.metricsFailed }, schedulers = KEY.schedulers,
  finishing = true
}
-- The batch the outcome includes share (acceptFinish, landFinished, settleFinishBatch).
local b = {outcomes = {}, leaseIds = {}, releasedHere = {}, setAdds = {[q.completed] = {}, [q.failed] = {}},
  finishedCount = {completed = 0, failed = 0}, policies = {}, policySeen = {}, completedIds = {}, returnValues = {}}

local i = ARG_FROM.record
while i <= #ARGV do
  local kind = ARGV[i]
  if kind == "completed" then -- the most frequent first
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
  elseif kind == "waitChildren" then
    finishWaitChildren(q, b, i)
    i = i + STRIDE.waitChildren
  else
    return redis.error_reply("moveToFinished: unknown record kind '" .. tostring(kind) .. "' at ARGV " .. i)
  end
end
settleFinishBatch(q, b)

-- The reply's first 8 slots made up front (a table grown by appends is resized at each power of two).
local out = {nil, nil, nil, nil, nil, nil, nil, nil}
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
