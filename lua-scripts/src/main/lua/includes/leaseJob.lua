--[[
  leaseJob: the lease step of takeJobs, in three calls on one lease table `l`:
  newLease(q, f, count) reserves `count` fencing tokens from the queue's counter with one INCRBY
  (numbers of jobs not run are skipped); leaseJob(q, f, l, id, hash, ...) gives one prepared job
  its lock token (f.token .. ":" .. fence, field lock), records processedOn, ats (attempts
  started), pb (processedBy, only for a named worker, f.worker ~= "") and, for a job taken ahead
  (l.ahead, set by takeJobs), ahd = "1" with one HSET, patches
  the HGETALL reply to match and appends it to out with the fence, id and lock token at its
  end (the reply leaves the lock field out: the token is at its end); commitLeases(q, l) adds every lease (scored by expiry) with one ZADD to q.leases, the set
  of active jobs, and emits the call's active events as one stream entry (emitEvents). A lease's
  score is its expiry on Redis's clock (redisNowMs + lockMs): no caller's clock judges a lock;
  commitLeases keeps it as q.leasedUntil (nextWakeTimes). A newLease for no job reads no clock.
  The fence is in the lock token and in the reply, not stored in the hash (a finished job's hash
  stays lean). A job booked by a rate limit (bookStart's processedOn and ms until it) gets its
  booked start as processedOn and, when it is in the future, a reply-only field startIn (ms the
  worker waits before it starts the job). Numbers reach Redis as strings formatted with %d: a Lua number argument is
  formatted with printf("%.17g"), which showed up in profiles.
]]
--- @include "intText"
--- @include "emitEvent"
--- @include "emitEvents"
--- @include "redisNowMs"

local function newLease(q, f, count)
  if count == 0 then
    -- Nothing to lease: no clock read, no fence.
    return {leases = {}, ids = {}}
  end
  local expiry = redisNowMs(q) + f.lockMs
  local l = {leases = {}, ids = {}, expiry = expiry, leaseUntil = string.format("%d", expiry)}
  l.nextFence = redis.call("INCRBY", q.fence, intText(count)) - count + 1
  return l
end

local function leaseJob(q, f, l, out, id, hash, attemptsStarted, atStarted, atOn, atBy, bookedOn, startIn)
  local jobKey = q.jobPrefix .. id
  local nowText = bookedOn or q.nowText
  local fence = string.format("%d", l.nextFence)
  l.nextFence = l.nextFence + 1
  local started = intText(attemptsStarted)
  local lockToken = f.token .. ":" .. fence
  local leases = l.leases
  leases[#leases + 1] = l.leaseUntil
  leases[#leases + 1] = id
  -- One HSET for every field the take changes; the reply is patched to match, so the worker
  -- gets the job as stored without a second read, plus the fence (in the lock token, not stored).
  if l.ahead and f.worker == "" then
    redis.call("HSET", jobKey, "ats", started, "processedOn", nowText, "lock", lockToken, "ahd", "1")
  elseif l.ahead then
    redis.call("HSET", jobKey, "ats", started, "processedOn", nowText, "pb", f.worker, "lock", lockToken, "ahd", "1")
  elseif f.worker == "" then
    redis.call("HSET", jobKey, "ats", started, "processedOn", nowText, "lock", lockToken)
  else
    redis.call("HSET", jobKey, "ats", started, "processedOn", nowText, "pb", f.worker, "lock", lockToken)
  end
  local n = #hash
  if atStarted then hash[atStarted] = started else hash[n + 1] = "ats"; hash[n + 2] = started; n = n + 2 end
  if atOn then hash[atOn] = nowText else hash[n + 1] = "processedOn"; hash[n + 2] = nowText; n = n + 2 end
  if f.worker ~= "" then
    if atBy then hash[atBy] = f.worker else hash[n + 1] = "pb"; hash[n + 2] = f.worker; n = n + 2 end
  end
  if l.ahead then
    hash[n + 1] = "ahd"
    hash[n + 2] = "1"
    n = n + 2
  end
  hash[n + 1] = "fence"
  hash[n + 2] = fence
  if startIn and startIn > 0 then
    hash[n + 3] = "startIn"
    hash[n + 4] = string.format("%d", startIn)
    n = n + 2
  end
  l.ids[#l.ids + 1] = id
  -- The job's own table goes in the reply with the id and lock token at its end: one table per
  -- job for Redis to convert, and no copying in Lua (each costs about as much).
  hash[n + 3] = id
  hash[n + 4] = lockToken
  out[#out + 1] = hash
end

local function commitLeases(q, l)
  if #l.leases > 0 then
    redis.call("ZADD", q.leases, unpack(l.leases))
    q.leasedUntil = l.expiry
    emitEvents(q, "active", l.ids)
  end
  return #l.ids
end
