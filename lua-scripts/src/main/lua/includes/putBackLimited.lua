--[[
  putBackLimited: moveToFinished's "limited" outcome (a processor threw RateLimitedException),
  after the lock check: the job goes back to the front of its line (wait, prioritized or its
  group, through pushReady) with ats - 1, so no attempt is used and no stall is counted (atm is
  unchanged; it did start, so an expiry deadline, field xp, is removed); limitedUntil = Redis
  now + delayMs is set on the queue (meta) or, for scope
  "group" on a job with a group (field grp), on the group (groupmeta:<g>, which the group pick
  honours; meta gsettings is set so it reads it; meta flow with either, see readMeta); a job without a group limits the queue. A
  limit already further out is kept. Idle workers are woken (marker, score = now + delayMs on
  the caller's clock): nothing else tells them of the job, and the put-back job would wait for
  their timers. The caller releases the lock and lease with the batch's others. Emits waiting
  (prev = active).
  Returns the state the job is now in.
]]
--- @include "redisNowMs"
--- @include "readMeta"
--- @include "pushReady"
--- @include "emitEvent"
--- @include "intText"
--- @include "queueContext"
--- @include "signalWorkers"

local function putBackLimited(q, jobId, delayMs, scope)
  local jobKey = q.jobPrefix .. jobId
  local job = redis.call("HMGET", jobKey, "priority", "grp", "xp")
  local group = job[2] or nil
  redis.call("HINCRBY", jobKey, "ats", -1)
  if job[3] then
    -- Its processor was called: it started, so it can no longer expire (a later hand-back of it
    -- must not restore the deadline).
    redis.call("HDEL", jobKey, "xp")
  end
  local untilMs = redisNowMs(q) + delayMs
  if scope == "group" and group then
    local groupMeta = (q.base or queueContext(q).base) .. "groupmeta:" .. group
    local current = tonumber(redis.call("HGET", groupMeta, "limitedUntil")) or 0
    if untilMs > current then
      redis.call("HSET", groupMeta, "limitedUntil", intText(untilMs))
    end
    -- Group limits are read only once the queue has one (groups: G.state); the same call's take too.
    redis.call("HSET", q.meta, "gsettings", "1", "flow", "1")
    q.gSettings = true
  else
    readMeta(q)
    if untilMs > (q.limitedUntil or 0) then
      redis.call("HSET", q.meta, "limitedUntil", intText(untilMs), "flow", "1")
      -- The same call's take honours it.
      q.limitedUntil = untilMs
    end
  end
  local state = pushReady(q, jobId, tonumber(job[1]) or 0, true, group)
  -- The job is ready again once the limit passes: idle workers must hear of it (their timers
  -- were set before it existed). The score is when, on the caller's clock; a woken worker's
  -- take tells it to wait until then.
  signalWorkers(q, q.now + delayMs)
  emitEvent(q, "waiting", jobId, "prev", "active")
  return state
end
