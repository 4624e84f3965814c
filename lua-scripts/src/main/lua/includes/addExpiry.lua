--[[
  addExpiry: the deadline of a job that must start by one (JobOptions expireAfter / expireAt:
  keys expireAfter and expireAt of the job's opts JSON), on Redis's clock: field xp and the ZSET
  <prefix>:{<queue>}:expiry (built from the job prefix, same slot; member = job id, score =
  deadline ms), and meta expiry = "1" (see expireJobs). addExpiry(q, jobId, opts, dueIn, fields):
  dueIn = ms until the job is due (its delay, 0 when ready now); opts without the text "expire
  pays no command; fields, when given, is the caller's HSET list of the job, which gets xp (the
  caller writes the hash after), else xp is written here. Only a deadline that is the earliest
  of the set (ZRANK 0) writes the meta flag and wakes idle workers at it (marker, on the
  caller's clock; also while the queue is paused): a set with an earlier member is not empty, so
  its flag is already set (expireJobs clears it only when the set is empty).
  moveExpiry(q, jobId, dueIn): a job whose due time moves before it started (changeDelay,
  promote, a debounced add): an expireAfter deadline (the job's opts remember the kind) becomes
  Redis now + dueIn + expireAfter; an expireAt deadline stays. Only a queue with the meta flag
  and a job in the set pays for it.
  Leaving and regaining the set (dropExpiry, restoreExpiry) are in the dropExpiry include, so
  that add scripts do not define them.
]]
--- @include "redisNowMs"
--- @include "expiryKey"
--- @include "readMeta"

-- Puts jobId at deadline (ms on Redis's clock, as text) in the set; the earliest sets the flag
-- and wakes idle workers at it.
local function setExpiry(q, jobId, text)
  local key = expiryKey(q)
  redis.call("ZADD", key, text, jobId)
  if redis.call("ZRANK", key, jobId) == 0 then
    redis.call("HSET", q.meta, "expiry", "1")
    q.expiryOn = true
    -- Also while the queue is paused (signalWorkers would not): a paused queue's jobs expire too.
    local now = q.now or redisNowMs(q)
    redis.call("ZADD", q.marker, "LT", string.format("%d", math.max(1, now + (tonumber(text) - redisNowMs(q)))), "0")
  end
end

local function addExpiry(q, jobId, opts, dueIn, fields)
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
  local text = string.format("%d", deadline)
  if fields then
    fields[#fields + 1] = "xp"
    fields[#fields + 1] = text
  else
    redis.call("HSET", q.jobPrefix .. jobId, "xp", text)
  end
  setExpiry(q, jobId, text)
end

local function moveExpiry(q, jobId, dueIn)
  readMeta(q)
  if not q.expiryOn or not redis.call("ZSCORE", expiryKey(q), jobId) then
    return
  end
  local jobKey = q.jobPrefix .. jobId
  local opts = redis.call("HGET", jobKey, "opts")
  if not opts or not string.find(opts, '"expireAfter"', 1, true) then
    return
  end
  local after = tonumber(cjson.decode(opts).expireAfter)
  if not after then
    return
  end
  local text = string.format("%d", redisNowMs(q) + dueIn + after)
  redis.call("HSET", jobKey, "xp", text)
  setExpiry(q, jobId, text)
end
