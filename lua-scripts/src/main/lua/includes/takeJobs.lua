--[[
  takeJobs: move up to f.count ready jobs (wait first, then prioritized) to active (q.leases, the
  set of active jobs: a taken job's lease is its only state entry). Honours pause. Three steps,
  each its own include so rate limits and groups can slot in (a capped count or another id
  source before the pop; a per-job check between prepare and lease):
    pop      pickReadyJobs: ids from wait, then prioritized (popReadyJobs); with groups, fair
             queueing over groups:ready
    prepare  prepareTakenJob, per job: read the hash, advance its scheduler, drop dangling ids
             and skipped iterations (a dropped grouped one gives its group slot back)
    lease    newLease (fences), leaseJob per job (lock, hash fields, reply), commitLeases (one
             ZADD, the active events)
  Before the pop, limitTake caps the count by the queue's limits (global concurrency, rate limit)
  and books each job's start (bookStart: processedOn is the booked start; commitLimit stores
  the GCRA state). A capped take leaves the marker alone (a finish or the wake time brings the
  next one); when jobs are left it sets q.limitWake, the time the rate limit allows the next
  start minus the horizon (nextWakeTimes).
  Then, when work is left another blocked worker is woken, unless q.finishing (the caller is a
  finishing worker, which never consumed the marker); when this take emptied the queue a
  "drained" event is emitted and, when it filled the caller's slots (a worker that will not
  wait) and a job is delayed or a group waits out its rate limit, the marker gets the earliest
  due time or release: the signal the caller consumed may have been the only news of it for the
  idle workers, and a group this take parked is news to them. Appends one array per job to out: the job hash as HGETALL (with
  the fence), then the jobId and the lockToken; returns how many jobs it took.
  Take-ahead (docs/adr/0003-take-ahead.md): after the f.count jobs for free slots it takes up to f.ahead more,
  which the worker buffers; leaseJob marks them ahd = "1". A queue with any limit (limitTake) or
  any group setting (meta gsettings: a group concurrency, weight, pause, size or limit, or a
  default for groups) ignores f.ahead, so prefetching never holds a limit's room or a group's
  slot. Groups without settings take ahead in fair order (the buffer holds about one round trip
  of work, so a group that becomes ready waits at most that long behind it).
]]
--- @include "emitEvent"
--- @include "signalWorkers"
--- @include "pickReadyJobs"
--- @include "prepareTakenJob"
--- @include "leaseJob"
--- @include "limitTake"
--- @include "releaseGroupSlot"
--- @include "readMeta"
--- @include "nextGroupRelease"
--- @include "nextWakeTimes"

local function takeJobs(q, f, out)
  if f.count + f.ahead <= 0 then
    return 0
  end
  readMeta(q)
  if q.paused then
    return 0
  end
  if f.ahead > 0 then
    readMeta(q)
    if q.concurrency or q.rlMax or q.limitedUntil or q.gSettings then
      f.ahead = 0
      if f.count <= 0 then
        return 0
      end
    end
  end
  local limit = limitTake(q, f)
  local pop = f
  if f.ahead > 0 then
    pop = setmetatable({count = f.count + f.ahead, countText = string.format("%d", f.count + f.ahead)}, {__index = f})
  end
  if limit then
    if limit.count == 0 then
      -- Held back with jobs left: say when to look again (nothing when the queue is empty).
      if readyLeft(q) then
        q.limitWake = limit.wake
      end
      return 0
    end
    -- The pop step sees the capped count; every other fetch argument as the caller gave it.
    pop = setmetatable({count = limit.count, countText = string.format("%d", limit.count)}, {__index = f})
  end
  local ids, short = pickReadyJobs(q, pop)
  local l = newLease(q, f, #ids)
  for k, id in ipairs(ids) do
    local hash, attemptsStarted, atStarted, atOn, atBy = prepareTakenJob(q, id)
    if hash then
      l.ahead = k > f.count
      leaseJob(q, f, l, out, id, hash, attemptsStarted, atStarted, atOn, atBy, bookStart(q, limit))
    elseif q.takenGroup and q.takenGroup[id] then
      -- Dropped (dangling or skipped) after the pick counted it active in its group.
      releaseGroupSlot(q, id, q.takenGroup[id])
    end
  end
  commitLimit(q, limit)
  local taken = commitLeases(q, l)
  if taken > 0 then
    -- A take that came up short emptied the queue; a full one looks (readyLeft).
    if not short and readyLeft(q) then
      if limit and limit.capped then
        q.limitWake = limit.wake
      end
      -- Work is left: wake the next blocked worker. Only a caller that consumed the marker
      -- needs to (moveToActive); a finishing worker's take never consumed it, so it leaves the
      -- marker as it found it. A take a limit capped wakes nobody: no capacity is left.
      if not q.finishing and not (limit and limit.capped) then
        redis.call("ZADD", q.marker, "0", "0")
      end
    else
      emitEvent(q, "drained", nil)
      -- A worker that filled its slots gets no wake times and will not wait: the marker it
      -- consumed may have been the only news of a delayed job's due time, or this take parked a
      -- group under its rate limit, and the idle workers' timers were set before either: the
      -- marker goes back with the earlier of the two times.
      if not q.finishing and taken >= f.count then
        local firstDelayed = firstDelayedScore(q)
        local wake = firstDelayed and math.floor(tonumber(firstDelayed) / 4096) or -1
        wake = earliestWake(wake, nextGroupRelease(q))
        if q.nextExpiry then
          wake = earliestWake(wake, q.nextExpiry)
        end
        if wake >= 0 then
          signalWorkers(q, wake)
        end
      end
    end
  end
  return taken
end
