--[[
  recoverStalledJobs: find active jobs whose lease (lock expiry, scored in q.leases, the set of
  active jobs) has passed
  and recover them: back to the front of wait (or to prioritized), or to failed once their
  stalledCount exceeds maxStalled. Expiry is judged on Redis's clock (redisNowMs), the clock
  every lease is written on, so a caller whose clock runs ahead cannot expire a live lock; the
  recovered job's lock field is cleared in the same step. A job cancelled while active (field cancel) fails as
  cancelled instead of going back (failCancelled). At most `limit` leases per call (`limit` is
  the decimal text Redis takes: a number passed to redis.call costs a sprintf).
  A job taken ahead whose processor never started (ahd = "1", take-ahead) goes back without a
  stall counted and with its start given back (stc and ats - 1): it never ran; a first attempt's
  expiry deadline (field xp) is restored (addExpiry: restoreExpiry). A job with a parent
  in a flow (par) that fails here tells its parents (notifyParent; failCancelled does the same).
  The earliest lease is read first (firstLeaseExpiry): when none has passed, that is the whole
  look, with no clock read when there are no leases, and the wake times reuse it; a call that
  recovers leaves it unknown.
  Returns two arrays: recovered ids, failed ids.
]]
--- @include "pushReady"
--- @include "releaseGroupSlot"
--- @include "signalWorkers"
--- @include "emitEvent"
--- @include "recordMetric"
--- @include "failCancelled"
--- @include "intText"
--- @include "endDeduplication"
--- @include "redisNowMs"
--- @include "notifyParent"
--- @include "restoreExpiry"
--- @include "nextWakeTimes"

local function recoverStalledJobs(q, maxStalled, limit)
  local recovered, failed = {}, {}
  if tonumber(limit) <= 0 then
    return recovered, failed
  end
  local first = firstLeaseExpiry(q)
  if not first or first > redisNowMs(q) then
    return recovered, failed
  end
  q.firstLease = nil
  local ids = redis.call("ZRANGEBYSCORE", q.leases, "-inf", redisNowMs(q), "LIMIT", "0", limit)
  for _, id in ipairs(ids) do
    local jobKey = q.jobPrefix .. id
    redis.call("ZREM", q.leases, id)
    if redis.call("EXISTS", jobKey) == 1 then
      local ready = redis.call("HMGET", jobKey, "priority", "grp", "cancel", "dedupId", "ahd", "stc", "par", "xp")
      local stalledCount
      if ready[5] == "1" then
        -- Taken ahead, never started: no stall counted, its start given back.
        stalledCount = tonumber(ready[6]) or 0
        local started = redis.call("HINCRBY", jobKey, "ats", -1)
        redis.call("HDEL", jobKey, "lock", "ahd")
        if ready[8] and started <= 0 then
          -- Its first attempt never started: its expiry deadline holds again (as moveToWait).
          restoreExpiry(q, id, ready[8])
        end
      else
        stalledCount = redis.call("HINCRBY", jobKey, "stc", 1)
        redis.call("HDEL", jobKey, "lock")
      end
      releaseGroupSlot(q, id, ready[2])
      if ready[3] then
        -- Cancelled while active (cancelJob): its worker died; it ends cancelled, not run again.
        failCancelled(q, id, ready[3], intText(redis.call("HINCRBY", jobKey, "atm", 1)), "active")
        failed[#failed + 1] = id
      elseif stalledCount > maxStalled then
        local reason = "job stalled more than maxStalledCount times (maxStalledCount = " .. maxStalled .. ")"
        local attemptsMade = redis.call("HINCRBY", jobKey, "atm", 1)
        redis.call("HSET", jobKey, "finishedOn", q.now, "failedReason", reason)
        redis.call("ZADD", q.failed, q.now, id)
        recordMetric(q, "failed")
        if ready[7] then
          notifyParent(q, id, ready[7], "failed", reason)
        end
        emitEvent(q, "failed", id, "failedReason", reason, "attemptsMade", attemptsMade, "prev", "active")
        endDeduplication(q, id, ready[4])
        failed[#failed + 1] = id
      else
        pushReady(q, id, tonumber(ready[1]) or 0, true, ready[2])
        emitEvent(q, "stalled", id, "stalledCount", stalledCount)
        recovered[#recovered + 1] = id
      end
    end
  end
  if #recovered > 0 then
    signalWorkers(q, 0)
  end
  return recovered, failed
end
