--[[
  queueContext: the one description of `q`, the context table a script builds once per call and
  passes to every include that works on the queue. A script sets only the fields its includes
  use; every field any script or include reads or writes is listed here (ScriptLintTest checks).
  Keys (from KEY, the table the catalog generates from the script's header KEYS names; all in
  the queue's slot):
    wait prioritized delayed leases completed failed  the state structures
    marker         ZSET workers block on (signalWorkers)
    meta           the queue's settings hash (readMeta)
    events         the event stream (emitEvent)
    fence          the fencing-token counter (leaseJob)
    schedulers     job scheduler ids by next run (addSchedulerIteration, advanceSchedulerOnTake)
    metrics        {completed = key, failed = key}: the per-minute count lists (recordMetric)
    waitingChildren  parents of flows waiting for their children (addFlow, childEnded, notifyParent)
    flowOutbox     child ends for parents in other slots (notifyParent; relayed by childEnded)
    groups groupsReady groupsLimited  the group registry, the groups that may run (fair-queueing
                   tags) and the rate-limited ones (release times) (groups, pickReadyJobs)
  From ARGV:
    jobPrefix      <prefix>:{<queue>}:job: ; job keys are jobPrefix .. id (job-scoped, not in KEYS)
    now, nowText   the caller's clock in epoch millis, as a number and as the text it came in
  Set by the script to choose a behaviour:
    finishing      true in moveToFinished: its take leaves the marker alone (takeJobs)
    trimLazily     true in addJob: events are trimmed once per call, not per entry (emitEvent)
  Derived (queueContext):
    base           jobPrefix without "job:"; per-scheduler hashes are base .. "scheduler:" .. id
  Filled in by includes during the call (caches and results):
    metaRead maxLen paused metricMinute metricCount  meta read once per call (readMeta)
    awaits         awaits registered on already active jobs (readMeta, keepResult)
    groupFunctions the group functions (groups), built on a call's first use of groups
    addSidePaths   the add functions a plain job does not need (addSidePaths), built on first use
    groupPick      the grouped pick (pickReadyJobs), built by a call's first grouped take
    groupDefaults  the state G.state gives every group while no group setting exists (one per call)
    flow           some flow-control field may be set (meta flow): readMeta read them too
    groupsOn gvt gConcurrency gRateMax gRatePer gRateBurst  group flag, virtual time, defaults (readMeta)
    gSettings gOut some group setting may exist (meta gsettings); grouped ready jobs that left
                   their group, written by the pick with gvt (readMeta)
    flowFunctions  the flow functions (notifyParent), built on a call's first use
    queue          the queue's name, from base (notifyParent)
    redisNow       Redis's clock in ms, read once per call for leases and limits (redisNowMs)
    firstLease     the earliest lease's expiry, false for none, nil when unknown or changed since
                   (firstLeaseExpiry; cleared by recoverStalledJobs when it recovers)
    leasedUntil    the expiry of the leases this take added (commitLeases; nextWakeTimes)
    firstDelayed   the earliest delayed job's score (text), false for none, nil when unknown or
                   changed since (firstDelayedScore; cleared by promoteDelayedJobs, addDelayed, expireJobs)
    gTaken readyGroups  grouped jobs this take picked; 0 when groups:ready is empty after it, else positive (pickReadyJobs)
    takenGroup     id -> group of each grouped job this take picked (pickReadyJobs; takeJobs
                   gives a dropped one's slot back)
    signalledReady the marker already says "a job is ready" (signalWorkers)
    waitLength     wait's length after the last push (pushReady)
    schedulerUpdates  scheduler updates for the worker (fetchJobs, advanceSchedulerOnTake)
    concurrency rlMax rlPer rlBurst rlTat limitedUntil  the queue's limits (readMeta)
    limitWake      when a take held back by the rate limit must look again (takeJobs, nextWakeTimes)
    expiryOn       some job may have an expiry deadline: meta expiry (readMeta, expireJobs)
    nextExpiry     the earliest expiry deadline on the caller's clock (expireJobs, nextWakeTimes, takeJobs)
  queueContext(q) fills in the derived fields and returns q.
]]

local function queueContext(q)
  q.base = string.sub(q.jobPrefix, 1, #q.jobPrefix - 4)
  return q
end
