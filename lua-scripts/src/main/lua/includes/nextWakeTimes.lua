--[[
  nextWakeTimes: when an idle worker must look again without being signalled: the due time of
  the earliest delayed job and the earliest lease expiry (a crashed worker's job), in epoch ms,
  -1 when there is none; leases are on Redis's clock, so the lease expiry is moved to the caller's
  (q.now + (expiry - Redis now)). The first also covers the earliest expiry deadline (q.nextExpiry, see expireJobs) and the queue's limits: q.limitWake, when the take
  was held back by a rate limit with jobs left (see takeJobs, limitTake). Workers arm client-side timers with them because Redis times out
  blocking commands only at its hz granularity.
  What the call already knows is not read again: the earliest delayed job (q.firstDelayed, see
  promoteDelayedJobs and firstDelayedScore), the earliest lease before the take (q.firstLease, see
  recoverStalledJobs) and the expiry of the leases the take added (q.leasedUntil, commitLeases).
]]
--- @include "redisNowMs"

-- The earliest delayed job's score (text), or false when none is delayed: read once per call and
-- kept in q.firstDelayed until something changes delayed (promoteDelayedJobs, addDelayed, expireJobs).
local function firstDelayedScore(q)
  if q.firstDelayed == nil then
    local delayed = redis.call("ZRANGE", q.delayed, "0", "0", "WITHSCORES")
    q.firstDelayed = delayed[2] or false
  end
  return q.firstDelayed
end

-- The earliest lease's expiry (Redis's clock), or false when no job is active: read once per call
-- and kept in q.firstLease until the stalled scan removes leases (recoverStalledJobs).
local function firstLeaseExpiry(q)
  if q.firstLease == nil then
    local lease = redis.call("ZRANGE", q.leases, "0", "0", "WITHSCORES")
    q.firstLease = lease[2] and tonumber(lease[2]) or false
  end
  return q.firstLease
end

local function nextWakeTimes(q)
  local nextDue, nextLease = -1, -1
  local firstDelayed = firstDelayedScore(q)
  if firstDelayed then
    nextDue = math.floor(tonumber(firstDelayed) / 4096)
  end
  if q.nextExpiry and (nextDue < 0 or q.nextExpiry < nextDue) then
    nextDue = q.nextExpiry
  end
  if q.limitWake and (nextDue < 0 or q.limitWake < nextDue) then
    nextDue = q.limitWake
  end
  local first = firstLeaseExpiry(q)
  if q.leasedUntil and (not first or q.leasedUntil < first) then
    first = q.leasedUntil
  end
  if first then
    nextLease = q.now + (first - redisNowMs(q))
  end
  return nextDue, nextLease
end
