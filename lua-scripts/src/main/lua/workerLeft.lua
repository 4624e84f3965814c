--[[
  workerLeft: a worker that closes leaves the list at once (its entry in workers and
  workers:seen goes), instead of lingering until its heartbeat expires.

  KEYS:
    1 workers       HASH    <prefix>:{<queue>}:workers  (worker name -> JSON)
    2 workersSeen   ZSET    <prefix>:{<queue>}:workers:seen  (worker name -> expiry ms, Redis clock)
  ARGV:
    1 name          the worker's name
  Returns:
    1 when the worker was listed, 0 when not
  Events:
    none
]]
redis.call("ZREM", KEY.workersSeen, ARG.name)
return redis.call("HDEL", KEY.workers, ARG.name)
