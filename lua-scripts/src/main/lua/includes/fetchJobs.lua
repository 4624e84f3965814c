--[[
  fetchJobs: what a worker does to get work, shared by moveToActive and moveToFinished:
  recover a bounded batch of stalled jobs, promote a bounded batch of due delayed jobs, fail a
  bounded batch of jobs past their expiry deadline (expireJobs; only on a queue with such jobs),
  optionally run the janitor (age retention), take up to f.count jobs (plus up to f.ahead jobs
  taken ahead, see takeJobs).
  Appends to the flat array out (one table: Redis converts each nested table of a reply at a
  cost of its own): recoveredCount, recovered ids, stalledFailedCount, their ids, jobCount, the
  jobs as takeJobs appends them, nextDelayedDue, nextLeaseExpiry, updateCount, then 5 values per
  scheduler update (see takeJobs, nextWakeTimes, recoverStalledJobs, advanceSchedulerOnTake).
  Returns out.
]]
--- @include "recoverStalledJobs"
--- @include "promoteDelayedJobs"
--- @include "takeJobs"
--- @include "nextWakeTimes"
--- @include "nextGroupRelease"
--- @include "removeExpiredJobs"
--- @include "queueContext"
--- @include "expireJobs"

-- arg: the script's named ARGV (count, token, lockMs, workerName, promoteLimit, stalledLimit,
-- maxStalled, cleanLimit, ahead), the same names in moveToActive's and moveToFinished's headers.
local function readFetchArgs(arg)
  return {
    count = tonumber(arg.count),
    countText = arg.count,
    token = arg.token,
    lockMs = tonumber(arg.lockMs),
    lockMsText = arg.lockMs,
    worker = arg.workerName,
    promoteLimit = tonumber(arg.promoteLimit),
    promoteLimitText = arg.promoteLimit,
    stalledLimit = tonumber(arg.stalledLimit),
    stalledLimitText = arg.stalledLimit,
    maxStalled = tonumber(arg.maxStalled),
    cleanLimit = tonumber(arg.cleanLimit),
    -- Take-ahead (docs/adr/0003-take-ahead.md): jobs to take beyond count, buffered by the worker ("0" = none).
    ahead = tonumber(arg.ahead) or 0
  }
end

local function appendCounted(out, values)
  out[#out + 1] = #values
  for i = 1, #values do
    out[#out + 1] = values[i]
  end
end

local function fetchJobs(q, f, out)
  -- Per-scheduler hashes are built from the base, like job keys from the job prefix.
  queueContext(q)
  q.schedulerUpdates = {}
  local recovered, failed = recoverStalledJobs(q, f.maxStalled, f.stalledLimitText)
  promoteDelayedJobs(q, f.promoteLimitText)
  expireJobs(q, math.max(f.promoteLimit, 1))
  if f.cleanLimit > 0 then
    removeExpiredJobs(q, f.cleanLimit)
    -- Janitor: schedulers whose worker died before adding their next iteration (score 0), and
    -- overdue ones whose pending iteration was deleted (clean, drain, remove): both get their
    -- next run after now from the worker.
    for _, id in ipairs(redis.call("ZRANGEBYSCORE", q.schedulers, 0, 0, "LIMIT", 0, 10)) do
      local s = redis.call("HMGET", q.base .. "scheduler:" .. id, "repeat", "next")
      q.schedulerUpdates[#q.schedulerUpdates + 1] = {id, "", 0, s[1] or "", tonumber(s[2]) or 0}
    end
    for _, id in ipairs(redis.call("ZRANGEBYSCORE", q.schedulers, 1, q.now - 1000, "LIMIT", 0, 10)) do
      local sKey = q.base .. "scheduler:" .. id
      local s = redis.call("HMGET", sKey, "jobId", "repeat", "next")
      if s[1] and s[1] ~= "" and redis.call("EXISTS", q.jobPrefix .. s[1]) == 0 then
        redis.call("HSET", sKey, "jobId", "")
        redis.call("ZADD", q.schedulers, 0, id)
        q.schedulerUpdates[#q.schedulerUpdates + 1] = {id, "", 0, s[2] or "", tonumber(s[3]) or 0}
      end
    end
  end
  appendCounted(out, recovered)
  appendCounted(out, failed)
  local countAt = #out + 1
  out[countAt] = 0
  local taken = takeJobs(q, f, out)
  out[countAt] = taken
  -- Wake times only matter to a worker about to wait: one whose take came up short.
  local nextDue, nextLease = -1, -1
  if taken < f.count or f.count == 0 then
    nextDue, nextLease = nextWakeTimes(q)
    nextDue = earliestWake(nextDue, nextGroupRelease(q))
  end
  out[#out + 1] = nextDue
  out[#out + 1] = nextLease
  out[#out + 1] = #q.schedulerUpdates
  for _, u in ipairs(q.schedulerUpdates) do
    for i = 1, 5 do
      out[#out + 1] = u[i]
    end
  end
  return out
end
