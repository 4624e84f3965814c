--[[
  expireJobs: jobs that must start by a deadline (JobOptions expireAfter / expireAt, keys
  expireAfter and expireAt of the job's opts JSON). The deadlines, on Redis's clock, are the ZSET
  <prefix>:{<queue>}:expiry (built from q.base, same slot; member = job id, score = deadline ms)
  and the job's field xp; meta field expiry = "1" while the ZSET may hold one (readMeta:
  q.expiryOn), so a queue whose jobs never expire pays no command for it.
  Deadlines are written at add and dropped at take by addExpiry.
  expireJobs(q, limit): in every fetch of a queue with the flag: reads the earliest deadline
  (q.nextExpiry, caller's clock, for nextWakeTimes); when it has come, fails at most `limit` due
  jobs whose first attempt has not started (field ats absent) and that wait in wait, prioritized,
  delayed or their group (also paused or held by a limit): out of their state (LREM for wait,
  O(position from the take's end)), failedReason "expired", attemptsMade 0, into failed with
  their removeOnFail retention, the failed metric, a failed event with expired = 1, parents told
  (notifyParent), deduplication id released and awaiters answered (notifyParent's F.endFailed).
  An expired pending iteration of a job scheduler advances its scheduler as a take does
  (advanceSchedulerOnTake). A job that started, finished, was removed (no hash: no field xp, so
  no state is searched) or waits for its children is only dropped from the ZSET. An empty ZSET clears the flag.
]]
--- @include "expiryKey"
--- @include "addExpiry"
--- @include "redisNowMs"
--- @include "readMeta"
--- @include "notifyParent"
--- @include "intText"
--- @include "groups"
--- @include "advanceSchedulerOnTake"

local function expireOne(q, id)
  local jobKey = q.jobPrefix .. id
  local h = redis.call("HMGET", jobKey, "ats", "grp", "finishedOn", "schedulerId", "xp")
  if not h[5] or (tonumber(h[1]) or 0) > 0 or h[3] then
    return false
  end
  local prev
  if redis.call("ZREM", q.delayed, id) == 1 then
    prev = "delayed"
    q.firstDelayed = nil
  elseif redis.call("ZREM", q.prioritized, id) == 1 then
    prev = "prioritized"
  else
    if h[2] then
      local jobsKey, stateKey = groups(q, h[2])
      if redis.call("ZREM", jobsKey, id) == 1 then
        prev = "waiting"
        redis.call("HINCRBY", q.meta, "gout", 1)
        if redis.call("EXISTS", jobsKey) == 0 then
          groups(q).forget(q, h[2], stateKey)
        end
      end
    end
    if not prev and redis.call("LREM", q.wait, -1, id) > 0 then
      prev = "waiting"
    end
  end
  if not prev then
    return false
  end
  redis.call("HSET", jobKey, "failedReason", "expired", "finishedOn", intText(q.now), "atm", "0")
  local stored = redis.call("HMGET", jobKey, "opts", "dedupId", "awaited", "awaitLate", "par")
  if stored[5] then
    notifyParent(q, id, stored[5], "failed", "expired")
  end
  notifyParent(q).endFailed(id, "expired", stored, "failedReason", "expired", "attemptsMade", "0",
    "prev", prev, "expired", "1")
  if h[4] and q.schedulerUpdates then
    -- A scheduler's pending iteration: its next one comes as if the expired one had been taken.
    advanceSchedulerOnTake(q, h[4], id)
  end
  return true
end

local function expireJobs(q, limit)
  readMeta(q)
  if not q.expiryOn then
    return 0
  end
  local key = expiryKey(q)
  local first = redis.call("ZRANGE", key, 0, 0, "WITHSCORES")
  if not first[2] then
    redis.call("HDEL", q.meta, "expiry")
    q.expiryOn = false
    return 0
  end
  local now = redisNowMs(q)
  local expired = 0
  if tonumber(first[2]) <= now then
    local ids = redis.call("ZRANGEBYSCORE", key, "-inf", now, "LIMIT", 0, limit)
    redis.call("ZREMRANGEBYRANK", key, 0, #ids - 1)
    for _, id in ipairs(ids) do
      if expireOne(q, id) then
        expired = expired + 1
      end
    end
    first = redis.call("ZRANGE", key, 0, 0, "WITHSCORES")
  end
  if first[2] then
    q.nextExpiry = q.now + (tonumber(first[2]) - now)
  end
  return expired
end
