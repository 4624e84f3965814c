--[[
  moveToActive: a worker takes up to `count` jobs in one call. First recovers a bounded batch of
  stalled jobs (expired leases), promotes a bounded batch of due delayed jobs and, when asked,
  removes finished jobs past their retention age (the janitor); then, unless
  the queue is paused, takes from wait, then prioritized. A taken job is active: its lease (in
  leases, the set of active jobs) is its only state entry. Each taken job gets a lock token
  (token .. ":" .. fence) with PX lockMs, a lease, a fencing token, processedOn, pb (processedBy, named
  workers only) and ats (attemptsStarted) + 1. Job keys and
  per-scheduler hashes (<prefix>:{<queue>}:scheduler:<id>, from the job prefix with scheduler: for job:)
  are built from jobKeyPrefix (same slot as the queue).
  The group sets (groups, groups:ready, groups:limited) are not KEYS: groups(q) builds them from
  jobKeyPrefix (same slot) when a group is involved, so a call for a queue without groups passes
  no argument for them (each key argument costs Redis ~2,000 instructions per call; the cost rules hot
  scripts follow are in docs/adr/0008-lua-cost-rules.md).

  KEYS:
    1 wait          LIST    <prefix>:{<queue>}:wait
    2 prioritized   ZSET    <prefix>:{<queue>}:prioritized
    3 delayed       ZSET    <prefix>:{<queue>}:delayed
    4 leases        ZSET    <prefix>:{<queue>}:leases  (the active jobs, scored by lock expiry)
    5 failed        ZSET    <prefix>:{<queue>}:failed  (jobs that stalled too often; janitor)
    6 marker        ZSET    <prefix>:{<queue>}:marker
    7 meta          HASH    <prefix>:{<queue>}:meta  (eventsMaxLength, paused, mm:/mc:<kind>; see readMeta)
    8 events        STREAM  <prefix>:{<queue>}:events
    9 fence         STRING  <prefix>:{<queue>}:fence  (fencing-token counter)
    10 completed    ZSET    <prefix>:{<queue>}:completed  (janitor)
    11 metricsCompleted LIST <prefix>:{<queue>}:metrics:completed  (unused here: same KEYS as moveToFinished)
    12 metricsFailed  LIST  <prefix>:{<queue>}:metrics:failed  (per-minute counts: jobs that stalled too often)
    13 schedulers   ZSET    <prefix>:{<queue>}:schedulers  (job scheduler ids by next run: advanced on take, janitor)
    14 id           STRING  <prefix>:{<queue>}:id  (a kept deduplicated add of a job failed as stalled: endDeduplication)
  ARGV:
    1 jobKeyPrefix  <prefix>:{<queue>}:job:
    2 now           epoch millis
    3 count         how many jobs to take at most (the worker's free slots)
    4 token         the worker's token; each lock token is token .. ":" .. fence
    5 lockMs        lock duration in millis
    6 workerName    stored as pb (processedBy); "" = not stored
    7 promoteLimit  max delayed jobs promoted in this call
    8 stalledLimit  max expired leases examined in this call (0 = skip)
    9  maxStalled   a job that stalls more often than this fails
    10 cleanLimit   janitor: oldest finished jobs examined per set for age retention (0 = skip)
    11 ahead        take-ahead: jobs to take beyond count, which the worker buffers until a
                    processor thread frees; each gets ahd = "1" (ignored, as 0, on a queue with a
                    limit or groups)
  Returns:
    one flat array (a nested table costs Redis a reply conversion of its own): recoveredCount,
    the ids recovered from stalled to wait; stalledFailedCount, the ids failed for stalling too
    often; jobCount, then per job one array: the job hash as HGETALL, then jobId and lockToken; nextDelayedDue, nextLeaseExpiry in epoch millis, -1 when there is none
    or when all `count` (> 0) jobs were taken (a worker that got all it asked for does not
    wait); updateCount, then 5 values per scheduler update: schedulerId, pendingJobId or "",
    due, repeat JSON, previous due, for the worker to precompute the following run (or add the
    next one when "")
  Events:
    active, waiting (promoted, prev = delayed), stalled, failed (stalled too often; or expired before
    it started, expired = 1, see expireJobs), drained,
    added (a scheduler's next iteration), removed (prev = skipped: a missed SKIP_MISSED iteration)
]]
--- @include "fetchJobs"

local q = {
  wait = KEY.wait, prioritized = KEY.prioritized, delayed = KEY.delayed, leases = KEY.leases,
  failed = KEY.failed, marker = KEY.marker, meta = KEY.meta, events = KEY.events, fence = KEY.fence,
  completed = KEY.completed, id = KEY.id, jobPrefix = ARG.jobKeyPrefix, now = tonumber(ARG.now), nowText = ARG.now,
  metrics = { completed = KEY.metricsCompleted, failed = KEY.metricsFailed }, schedulers = KEY.schedulers
}
-- The reply's first 8 slots made up front (a table grown by appends is resized at each power of two).
return fetchJobs(q, readFetchArgs(ARG), {nil, nil, nil, nil, nil, nil, nil, nil})
