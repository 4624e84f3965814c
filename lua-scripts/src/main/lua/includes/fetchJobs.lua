--[[
  fetchJobs: what a worker does to get work, shared by moveToActive and moveToFinished:
  recover a bounded batch of stalled jobs, promote a bounded batch of due delayed jobs,
  optionally run the janitor (age retention), take up to f.count jobs.
  Returns {jobs, nextDelayedDue, nextLeaseExpiry, recoveredIds, stalledFailedIds}
  (see takeJobs, nextWakeTimes and recoverStalledJobs).
]]
--- @include "recoverStalledJobs"
--- @include "promoteDelayedJobs"
--- @include "takeJobs"
--- @include "nextWakeTimes"
--- @include "removeExpiredJobs"

local function readFetchArgs(firstIndex)
  return {
    count = tonumber(ARGV[firstIndex]),
    token = ARGV[firstIndex + 1],
    lockMs = tonumber(ARGV[firstIndex + 2]),
    worker = ARGV[firstIndex + 3],
    promoteLimit = tonumber(ARGV[firstIndex + 4]),
    stalledLimit = tonumber(ARGV[firstIndex + 5]),
    maxStalled = tonumber(ARGV[firstIndex + 6]),
    cleanLimit = tonumber(ARGV[firstIndex + 7])
  }
end

local function fetchJobs(q, f)
  local recovered, failed = recoverStalledJobs(q, f.maxStalled, f.stalledLimit)
  promoteDelayedJobs(q, f.promoteLimit)
  removeExpiredJobs(q, f.cleanLimit)
  local jobs = takeJobs(q, f)
  local nextDue, nextLease = nextWakeTimes(q)
  return {jobs, nextDue, nextLease, recovered, failed}
end
