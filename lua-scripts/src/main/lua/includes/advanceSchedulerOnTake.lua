--[[
  advanceSchedulerOnTake: a worker just took job `jobId` of scheduler `schedulerId`. When it is
  the scheduler's pending iteration, the next one is created in the same script at the
  precomputed `following` time, so a scheduler keeps ticking with only workers running. When
  that time is unknown or already past (runs were missed), the scheduler is marked for repair
  (score 0, no pending job): the worker computes the next run after now and adds it with
  advanceJobScheduler; any worker's janitor pass repairs it if that worker dies first.
  Each case appends {schedulerId, pendingJobId or "", due, repeat JSON, previous due} to
  q.schedulerUpdates for the worker. Returns "skip" when the taken job is an overdue iteration
  of a SKIP_MISSED scheduler (the caller drops it), else "run".
]]
--- @include "addSchedulerIteration"

local function advanceSchedulerOnTake(q, schedulerId, jobId)
  local sKey = q.base .. "scheduler:" .. schedulerId
  local s = redis.call("HMGET", sKey, "jobId", "following", "misfire", "repeat", "next")
  if s[1] ~= jobId then
    return "run"
  end
  local following = tonumber(s[2])
  if following and following > q.now then
    local pending = addSchedulerIteration(q, schedulerId, following, nil)
    q.schedulerUpdates[#q.schedulerUpdates + 1] = {schedulerId, pending or "", following, s[4], following}
    return "run"
  end
  redis.call("HSET", sKey, "jobId", "")
  redis.call("ZADD", q.schedulers, 0, schedulerId)
  q.schedulerUpdates[#q.schedulerUpdates + 1] = {schedulerId, "", 0, s[4], tonumber(s[5]) or 0}
  if following and s[3] == "SKIP_MISSED" then
    return "skip"
  end
  return "run"
end
