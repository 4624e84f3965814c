--[[
  takeJobs: move up to f.count ready jobs (wait first, then prioritized) to active, each with a
  lock token (f.token .. ":" .. fence) set with PX, a lease scored by its expiry, a fencing token
  from the queue's counter (one INCRBY per call reserves a block; unused numbers are skipped), processedOn, processedBy and attemptsStarted. Honours pause.
  When work is left another blocked worker is woken; when this take emptied the queue a
  "drained" event is emitted. Taking a job scheduler's pending iteration creates the next one
  (see advanceSchedulerOnTake). Returns an array of {jobId, lockToken, {job hash as HGETALL}}.
]]
--- @include "emitEvent"
--- @include "signalWorkers"
--- @include "advanceSchedulerOnTake"
--- @include "removeJobData"

local function takeJobs(q, f)
  local jobs = {}
  if f.count <= 0 or isPaused(q) then
    return jobs
  end
  -- Fencing tokens come from one INCRBY per call (numbers of jobs not found are skipped), and
  -- the leases go in with one ZADD.
  local nextFence, lastFence = 1, 0
  local leases = {}
  for taken = 0, f.count - 1 do
    local id = redis.call("LMOVE", q.wait, q.active, "RIGHT", "LEFT")
    if not id then
      local popped = redis.call("ZPOPMIN", q.prioritized)
      if not popped[1] then
        break
      end
      id = popped[1]
      redis.call("LPUSH", q.active, id)
    end
    local jobKey = q.jobPrefix .. id
    local hash = redis.call("HGETALL", jobKey)
    local verdict = "run"
    local attemptsStarted = 1
    for i = 1, #hash, 2 do
      local field = hash[i]
      if field == "attemptsStarted" then
        attemptsStarted = tonumber(hash[i + 1]) + 1
      elseif field == "schedulerId" and verdict == "run" then
        verdict = advanceSchedulerOnTake(q, hash[i + 1], id)
      end
    end
    if #hash == 0 or verdict == "skip" then
      -- A dangling id (hash deleted behind our back) is dropped rather than run as a ghost; an
      -- overdue iteration of a SKIP_MISSED scheduler is dropped, never run.
      redis.call("LREM", q.active, 1, id)
      if #hash > 0 then
        removeJobData(q.jobPrefix, id)
        emitEvent(q, "removed", id, "prev", "skipped")
      end
    else
      if nextFence > lastFence then
        lastFence = redis.call("INCRBY", q.fence, f.count - taken)
        nextFence = lastFence - (f.count - taken) + 1
      end
      local fence = nextFence
      nextFence = nextFence + 1
      local lockToken = f.token .. ":" .. fence
      redis.call("SET", jobKey .. ":lock", lockToken, "PX", f.lockMs)
      leases[#leases + 1] = q.now + f.lockMs
      leases[#leases + 1] = id
      -- One HSET for every field the take changes; the reply is patched to match, so the
      -- worker gets the job as stored without a second read.
      local updates = {attemptsStarted = attemptsStarted, processedOn = q.now, processedBy = f.worker, fence = fence}
      redis.call("HSET", jobKey, "attemptsStarted", attemptsStarted, "processedOn", q.now,
          "processedBy", f.worker, "fence", fence)
      local seen = {}
      for i = 1, #hash, 2 do
        local value = updates[hash[i]]
        if value ~= nil then
          hash[i + 1] = tostring(value)
          seen[hash[i]] = true
        end
      end
      for _, field in ipairs({"attemptsStarted", "processedOn", "processedBy", "fence"}) do
        if not seen[field] then
          hash[#hash + 1] = field
          hash[#hash + 1] = tostring(updates[field])
        end
      end
      emitEvent(q, "active", id)
      jobs[#jobs + 1] = {id, lockToken, hash}
    end
  end
  if #leases > 0 then
    redis.call("ZADD", q.leases, unpack(leases))
  end
  if #jobs > 0 then
    -- "or" short-circuits: prioritized is only counted when wait is empty.
    if redis.call("LLEN", q.wait) > 0 or redis.call("ZCARD", q.prioritized) > 0 then
      redis.call("ZADD", q.marker, 0, "0")
    else
      emitEvent(q, "drained", nil)
    end
  end
  return jobs
end
