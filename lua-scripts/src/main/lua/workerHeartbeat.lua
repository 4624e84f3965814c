--[[
  workerHeartbeat: a worker says it is alive (at start, every min(lockDuration / 2, 5 s), and on
  pause and resume). Stores its entry in workers (JSON: the worker's own fields, plus `started`
  kept from its live entry or set now, and `lastSeen` = now) and its expiry in workers:seen
  (now + ttl). Time is Redis's (TIME), the one clock every client judges expiry by. Also drops up
  to 10 expired entries of dead workers, so the hash does not grow when nobody lists them.
  Returns the earliest lease expiry too: a lease that expires before the worker's next heartbeat
  is one nobody renews (a live lease is renewed every lockDuration / 2), so an idle worker that
  never fetched after the job was taken still looks at the queue when it expires.

  KEYS:
    1 workers       HASH    <prefix>:{<queue>}:workers  (worker name -> JSON)
    2 workersSeen   ZSET    <prefix>:{<queue>}:workers:seen  (worker name -> expiry ms, Redis clock)
    3 leases        ZSET    <prefix>:{<queue>}:leases  (the active jobs, scored by lock expiry; read only)
  ARGV:
    1 name          the worker's name
    2 info          JSON object: name, host, pid, concurrency, running, paused
    3 ttl           ms the entry lives without another heartbeat (3 lock durations)
  Returns:
    an array: Redis's clock in ms (the entry's lastSeen), then the earliest lease expiry (ms,
    Redis clock), -1 when no job is active
  Events:
    none
]]
--- @include "dropExpiredWorkers"

local name, ttl = ARG.name, tonumber(ARG.ttl)
local t = redis.call("TIME")
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)

local info = cjson.decode(ARG.info)
local started = now
local expiry = redis.call("ZSCORE", KEY.workersSeen, name)
if expiry and tonumber(expiry) > now then
  -- A live entry of this worker: keep when it started (an expired one was another life).
  local old = redis.call("HGET", KEY.workers, name)
  if old then
    started = cjson.decode(old).started or now
  end
end
info.started = started
info.lastSeen = now
redis.call("HSET", KEY.workers, name, cjson.encode(info))
redis.call("ZADD", KEY.workersSeen, now + ttl, name)
dropExpiredWorkers(KEY.workers, KEY.workersSeen, now, 10)
local lease = redis.call("ZRANGE", KEY.leases, 0, 0, "WITHSCORES")
return {now, lease[2] and math.floor(tonumber(lease[2])) or -1}
