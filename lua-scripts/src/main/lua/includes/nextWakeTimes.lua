--[[
  nextWakeTimes: when an idle worker must look again without being signalled: the due time of
  the earliest delayed job and the earliest lease expiry (a crashed worker's job), in epoch ms,
  -1 when there is none; leases are on Redis's clock, so the lease expiry is moved to the caller's
  (q.now + (expiry - Redis now)). The first also covers the earliest expiry deadline (q.nextExpiry, see expireJobs) and the queue's limits: q.limitWake, when the take
  was held back by a rate limit with jobs left (see takeJobs, limitTake). Workers arm client-side timers with them because Redis times out
  blocking commands only at its hz granularity.
]]
--- @include "redisNowMs"

local function nextWakeTimes(q)
  local nextDue, nextLease = -1, -1
  local delayed = redis.call("ZRANGE", q.delayed, 0, 0, "WITHSCORES")
  if delayed[2] then
    nextDue = math.floor(tonumber(delayed[2]) / 4096)
  end
  if q.nextExpiry and (nextDue < 0 or q.nextExpiry < nextDue) then
    nextDue = q.nextExpiry
  end
  if q.limitWake and (nextDue < 0 or q.limitWake < nextDue) then
    nextDue = q.limitWake
  end
  local lease = redis.call("ZRANGE", q.leases, 0, 0, "WITHSCORES")
  if lease[2] then
    nextLease = q.now + (tonumber(lease[2]) - redisNowMs(q))
  end
  return nextDue, nextLease
end
