--[[
  workerHeartbeat: a worker says it is alive (at start, every min(lockDuration / 2, 5 s), and on
  pause and resume). Stores its entry in workers (JSON: the worker's own fields, plus `started`
  kept from its live entry or set now, and `lastSeen` = now) and its expiry in workers:seen
  (now + ttl). Time is Redis's (TIME), the one clock every client judges expiry by. Also drops up
  to 10 expired entries of dead workers, so the hash does not grow when nobody lists them.
  Returns the earliest lease expiry too: a lease that expires before the worker's next heartbeat
  is one nobody renews (a live lease is renewed every lockDuration / 2), so an idle worker that
  never fetched after the job was taken still looks at the queue when it expires.
  And whether there is flow work for the queue's workers, so that they poll for none: child ends
  to relay (flow:outbox not empty), committed flows not fully created for carryOnMs, parents
  that have waited for their children for reconcileMs (docs/flows.md).

  KEYS:
    1 workers       HASH    <prefix>:{<queue>}:workers  (worker name -> JSON)
    2 workersSeen   ZSET    <prefix>:{<queue>}:workers:seen  (worker name -> expiry ms, Redis clock)
    3 leases        ZSET    <prefix>:{<queue>}:leases  (the active jobs, scored by lock expiry; read only)
    4 flowOutbox    LIST    <prefix>:{<queue>}:flow:outbox  (read only)
    5 flowsPending  ZSET    <prefix>:{<queue>}:flows:pending  (read only)
    6 waitingChildren ZSET  <prefix>:{<queue>}:waiting-children  (read only)
  ARGV:
    1 name          the worker's name
    2 info          JSON object: name, host, pid, concurrency, running, paused
    3 ttl           ms the entry lives without another heartbeat (3 lock durations)
    4 carryOnMs     a committed flow this old (ms, by its commit time) and not fully created is flow work
    5 reconcileMs   a parent that has waited this long for its children is flow work
  Returns:
    an array: Redis's clock in ms (the entry's lastSeen), then the earliest lease expiry (ms,
    Redis clock), -1 when no job is active, then the flow work as bits: 1 child ends to relay, 2
    flows to carry on, 4 parents to reconcile (0 = none)
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
local flowWork = 0
if redis.call("LLEN", KEY.flowOutbox) > 0 then
  flowWork = flowWork + 1
end
-- Commit times and waiting starts are the callers' clocks, close to Redis's.
if #redis.call("ZRANGEBYSCORE", KEY.flowsPending, "-inf", now - tonumber(ARG.carryOnMs), "LIMIT", 0, 1) > 0 then
  flowWork = flowWork + 2
end
if #redis.call("ZRANGEBYSCORE", KEY.waitingChildren, "-inf", now - tonumber(ARG.reconcileMs), "LIMIT", 0, 1) > 0 then
  flowWork = flowWork + 4
end
return {now, lease[2] and math.floor(tonumber(lease[2])) or -1, flowWork}
