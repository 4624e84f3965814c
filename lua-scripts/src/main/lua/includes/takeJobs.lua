--[[
  takeJobs: move up to f.count ready jobs (wait first, then prioritized) to active (q.leases, the
  set of active jobs: a taken job's lease is its only state entry), each with a
  lock token (f.token .. ":" .. fence) set with PX, a lease scored by its expiry, a fencing token
  from the queue's counter (one INCRBY per call reserves a block; unused numbers are skipped),
  processedOn, pb (processedBy: only for a named worker, f.worker ~= "") and ats (attempts
  started). The fence is in the lock token and in the reply, not stored in the hash (a finished
  job's hash stays lean). Honours pause.
  When work is left another blocked worker is woken, unless q.finishing (the caller is a
  finishing worker, which never consumed the marker); when this take emptied the queue a
  "drained" event is emitted. Taking a job scheduler's pending iteration creates the next one
  (see advanceSchedulerOnTake). The active events of the call are one stream entry (emitEvents).
  Appends one array per job to out: the job hash as HGETALL, then
  the jobId and the lockToken; returns how many jobs it took.
]]
--- @include "emitEvent"
--- @include "intText"
--- @include "signalWorkers"
--- @include "advanceSchedulerOnTake"
--- @include "removeJobData"

local function takeJobs(q, f, out)
  local taken = 0
  if f.count <= 0 or isPaused(q) then
    return taken
  end
  -- The leases go in with one ZADD. Numbers reach Redis as strings formatted with %d: a Lua
  -- number argument is formatted with printf("%.17g"), which showed up in profiles.
  local nextFence
  local leases, activeIds = {}, {}
  local nowText = q.nowText
  local leaseUntil = string.format("%d", q.now + f.lockMs)
  local lockMsText = f.lockMsText
  -- One pop per source for the whole batch (RPOP/ZPOPMIN with a count, Redis 6.2+). Popped,
  -- a job is in no state structure until the batched ZADD of its lease below (this script is
  -- atomic, so nothing else sees that).
  local ids = redis.call("RPOP", q.wait, f.countText) or {}
  local short = #ids < f.count
  if short then
    local popped = redis.call("ZPOPMIN", q.prioritized, intText(f.count - #ids))
    for i = 1, #popped, 2 do
      ids[#ids + 1] = popped[i]
    end
    short = #ids < f.count
  end
  if #ids > 0 then
    -- Fencing tokens: one INCRBY reserves a block (numbers of jobs not run are skipped).
    nextFence = redis.call("INCRBY", q.fence, intText(#ids)) - #ids + 1
  end
  for _, id in ipairs(ids) do
    local jobKey = q.jobPrefix .. id
    local hash = redis.call("HGETALL", jobKey)
    local verdict = "run"
    local attemptsStarted = 1
    -- Where the fields the take rewrites sit in the reply, to patch it in place.
    local atStarted, atOn, atBy
    for i = 1, #hash, 2 do
      local field = hash[i]
      if field == "ats" then
        attemptsStarted = tonumber(hash[i + 1]) + 1
        atStarted = i + 1
      elseif field == "processedOn" then
        atOn = i + 1
      elseif field == "pb" then
        atBy = i + 1
      elseif field == "schedulerId" and verdict == "run" then
        verdict = advanceSchedulerOnTake(q, hash[i + 1], id)
      end
    end
    if #hash == 0 or verdict == "skip" then
      -- A dangling id (hash deleted behind our back) is dropped rather than run as a ghost; an
      -- overdue iteration of a SKIP_MISSED scheduler is dropped, never run. Neither gets a lease,
      -- so popping it was all it took to drop the id.
      if #hash > 0 then
        removeJobData(q.jobPrefix, id)
        emitEvent(q, "removed", id, "prev", "skipped")
      end
    else
      local fence = string.format("%d", nextFence)
      nextFence = nextFence + 1
      local started = intText(attemptsStarted)
      local lockToken = f.token .. ":" .. fence
      redis.call("SET", jobKey .. ":lock", lockToken, "PX", lockMsText)
      leases[#leases + 1] = leaseUntil
      leases[#leases + 1] = id
      -- One HSET for every field the take changes; the reply is patched to match, so the
      -- worker gets the job as stored without a second read, plus the fence (in the lock token, not stored).
      if f.worker == "" then
        redis.call("HSET", jobKey, "ats", started, "processedOn", nowText)
      else
        redis.call("HSET", jobKey, "ats", started, "processedOn", nowText, "pb", f.worker)
      end
      local n = #hash
      if atStarted then hash[atStarted] = started else hash[n + 1] = "ats"; hash[n + 2] = started; n = n + 2 end
      if atOn then hash[atOn] = nowText else hash[n + 1] = "processedOn"; hash[n + 2] = nowText; n = n + 2 end
      if f.worker ~= "" then
        if atBy then hash[atBy] = f.worker else hash[n + 1] = "pb"; hash[n + 2] = f.worker; n = n + 2 end
      end
      hash[n + 1] = "fence"
      hash[n + 2] = fence
      activeIds[#activeIds + 1] = id
      -- The job's own table goes in the reply with the id and lock token at its end: one table
      -- per job for Redis to convert, and no copying in Lua (each costs about as much).
      local last = #hash
      hash[last + 1] = id
      hash[last + 2] = lockToken
      out[#out + 1] = hash
      taken = taken + 1
    end
  end
  if #leases > 0 then
    redis.call("ZADD", q.leases, unpack(leases))
    emitEvents(q, "active", activeIds)
  end
  if taken > 0 then
    -- A take that came up short emptied the queue; a full one looks ("or" short-circuits:
    -- prioritized is only counted when wait is empty).
    if not short and (redis.call("LLEN", q.wait) > 0 or redis.call("ZCARD", q.prioritized) > 0) then
      -- Work is left: wake the next blocked worker. Only a caller that consumed the marker
      -- needs to (moveToActive); a finishing worker's take never consumed it, so it leaves the
      -- marker as it found it.
      if not q.finishing then
        redis.call("ZADD", q.marker, "0", "0")
      end
    else
      emitEvent(q, "drained", nil)
    end
  end
  return taken
end
