--[[
  getCounts: the number of jobs in each state and the paused flag, read atomically.
  Read-only.

  KEYS:
    1 wait          LIST    <prefix>:{<queue>}:wait
    2 prioritized   ZSET    <prefix>:{<queue>}:prioritized
    3 delayed       ZSET    <prefix>:{<queue>}:delayed
    4 leases        ZSET    <prefix>:{<queue>}:leases  (the active jobs)
    5 completed     ZSET    <prefix>:{<queue>}:completed
    6 failed        ZSET    <prefix>:{<queue>}:failed
    7 meta          HASH    <prefix>:{<queue>}:meta
    8 waitingChildren ZSET  <prefix>:{<queue>}:waiting-children  (parents of flows waiting for children)
  ARGV:
    none
  Returns:
    {waiting, prioritized, delayed, active, completed, failed, paused (1 or 0), waitingChildren}; waiting counts
    the wait list and the grouped ready jobs (meta gin - gout)
  Events:
    none
]]
local grouped = redis.call("HMGET", KEY.meta, "gin", "gout")
return {
  redis.call("LLEN", KEY.wait) + (tonumber(grouped[1]) or 0) - (tonumber(grouped[2]) or 0),
  redis.call("ZCARD", KEY.prioritized),
  redis.call("ZCARD", KEY.delayed),
  redis.call("ZCARD", KEY.leases),
  redis.call("ZCARD", KEY.completed),
  redis.call("ZCARD", KEY.failed),
  redis.call("HEXISTS", KEY.meta, "paused"),
  redis.call("ZCARD", KEY.waitingChildren)
}
