--[[
  addExpiry: the deadline of a job that must start by one (JobOptions expireAfter / expireAt:
  keys expireAfter and expireAt of the job's opts JSON), on Redis's clock: field xp and the ZSET
  <prefix>:{<queue>}:expiry (built from the job prefix, same slot; member = job id, score =
  deadline ms), and meta expiry = "1" (see expireJobs). addExpiry(q, jobId, opts, dueIn): dueIn
  = ms until the job is due (its delay, 0 when ready now); opts without the text "expire pays no
  command. Wakes idle workers at the deadline (marker, on the caller's clock; also while the queue is
  paused) when it is the earliest. Leaving and
  regaining the ZSET are in dropExpiry (an add does not define them).
]]
--- @include "redisNowMs"

local function expiryKey(q)
  return (q.base or string.sub(q.jobPrefix, 1, #q.jobPrefix - 4)) .. "expiry"
end

local function addExpiry(q, jobId, opts, dueIn)
  if opts == "" or not string.find(opts, '"expire', 1, true) then
    return
  end
  local o = cjson.decode(opts)
  local deadline
  if o.expireAt then
    deadline = tonumber(o.expireAt)
  elseif o.expireAfter then
    deadline = redisNowMs(q) + dueIn + tonumber(o.expireAfter)
  else
    return
  end
  local key = expiryKey(q)
  local text = string.format("%d", deadline)
  redis.call("HSET", q.jobPrefix .. jobId, "xp", text)
  redis.call("ZADD", key, text, jobId)
  redis.call("HSET", q.meta, "expiry", "1")
  if redis.call("ZRANK", key, jobId) == 0 then
    -- Also while the queue is paused (signalWorkers would not): a paused queue's jobs expire too.
    redis.call("ZADD", q.marker, "LT", string.format("%d", math.max(1, q.now + (deadline - redisNowMs(q)))), "0")
  end
end
