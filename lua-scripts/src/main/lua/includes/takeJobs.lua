--[[
  takeJobs: move up to f.count ready jobs (wait first, then prioritized) to active, each with a
  lock token (f.token .. ":" .. fence) set with PX, a lease scored by its expiry, a fencing token
  from the queue's INCR counter, processedOn, processedBy and attemptsStarted. Honours pause.
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
  for _ = 1, f.count do
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
    if #hash == 0 then
      -- A dangling id (hash deleted behind our back): drop it rather than run a ghost.
      redis.call("LREM", q.active, 1, id)
    else
      local fence = redis.call("INCR", q.fence)
      local lockToken = f.token .. ":" .. fence
      redis.call("SET", jobKey .. ":lock", lockToken, "PX", f.lockMs)
      redis.call("ZADD", q.leases, q.now + f.lockMs, id)
      -- One HSET for every field the take changes; the reply is patched to match, so the
      -- worker gets the job as stored without a second read.
      local updates = {attemptsStarted = 1, processedOn = q.now, processedBy = f.worker, fence = fence}
      local verdict = "run"
      for i = 1, #hash, 2 do
        local field = hash[i]
        if field == "attemptsStarted" then
          updates.attemptsStarted = tonumber(hash[i + 1]) + 1
        elseif field == "schedulerId" and verdict == "run" then
          verdict = advanceSchedulerOnTake(q, hash[i + 1], id)
        end
      end
      redis.call("HSET", jobKey, "attemptsStarted", updates.attemptsStarted, "processedOn", q.now,
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
      if verdict == "skip" then
        -- An overdue iteration of a SKIP_MISSED scheduler: dropped, never run.
        redis.call("DEL", jobKey .. ":lock")
        redis.call("ZREM", q.leases, id)
        redis.call("LREM", q.active, 1, id)
        removeJobData(q.jobPrefix, id)
        emitEvent(q, "removed", id, "prev", "skipped")
      else
        emitEvent(q, "active", id)
        jobs[#jobs + 1] = {id, lockToken, hash}
      end
    end
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
