--[[
  fetchJobs: what a worker does to get work, shared by moveToActive and moveToFinished:
  recover a bounded batch of stalled jobs, promote a bounded batch of due delayed jobs, take
  up to f.count jobs. Returns {jobs, nextDelayedDue, nextLeaseExpiry} (see takeJobs and
  nextWakeTimes).
]]
--- @include "recoverStalledJobs"
--- @include "promoteDelayedJobs"
--- @include "takeJobs"
--- @include "nextWakeTimes"

local function readFetchArgs(firstIndex)
  return {
    count = tonumber(ARGV[firstIndex]),
    token = ARGV[firstIndex + 1],
    lockMs = tonumber(ARGV[firstIndex + 2]),
    worker = ARGV[firstIndex + 3],
    promoteLimit = tonumber(ARGV[firstIndex + 4]),
    stalledLimit = tonumber(ARGV[firstIndex + 5]),
    maxStalled = tonumber(ARGV[firstIndex + 6])
  }
end

local function fetchJobs(q, f)
  recoverStalledJobs(q, f.maxStalled, f.stalledLimit)
  promoteDelayedJobs(q, f.promoteLimit)
  local jobs = takeJobs(q, f)
  local nextDue, nextLease = nextWakeTimes(q)
  return {jobs, nextDue, nextLease}
end
