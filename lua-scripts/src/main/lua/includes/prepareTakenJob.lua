--[[
  prepareTakenJob: the per-job step of takeJobs between pop and lease. Reads the popped job's
  hash (HGETALL) and, for a job scheduler's pending iteration, creates the next one
  (advanceSchedulerOnTake); a job with an expiry deadline (field xp) leaves the expiry ZSET. A dangling id (hash deleted behind our back) is dropped rather than
  run as a ghost; an overdue iteration of a SKIP_MISSED scheduler is removed (a "removed" event,
  prev = "skipped") and never run. Neither gets a lease, so popping it was all it took.
  Returns nil for a dropped job, else the hash as HGETALL returned it, the attempts this run
  starts (ats + 1), and where the fields the lease rewrites sit in the hash (index of the value
  of ats, processedOn, pb; nil when absent), so leaseJob patches the reply in place.
]]
--- @include "advanceSchedulerOnTake"
--- @include "removeJobData"
--- @include "emitEvent"
--- @include "emitEvents"
--- @include "dropExpiry"

local function prepareTakenJob(q, id)
  local hash = redis.call("HGETALL", q.jobPrefix .. id)
  local verdict = "run"
  local attemptsStarted = 1
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
    elseif field == "xp" then
      -- Its first attempt starts: it can no longer expire (expireJobs).
      dropExpiry(q, id)
    elseif field == "schedulerId" and verdict == "run" then
      verdict = advanceSchedulerOnTake(q, hash[i + 1], id)
    end
  end
  if #hash == 0 then
    return nil
  end
  if verdict == "skip" then
    removeJobData(q.jobPrefix, id)
    emitEvent(q, "removed", id, "prev", "skipped")
    return nil
  end
  return hash, attemptsStarted, atStarted, atOn, atBy
end
