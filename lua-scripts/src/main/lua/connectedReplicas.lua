--[[
  connectedReplicas: how many replicas are connected to the master that holds the queue
  (connected_slaves of INFO replication). Read-only: a queue with durable adds asks before an
  add when it has not seen enough replicas within the last second, so an add with too few
  replicas fails at once, writing nothing, instead of waiting out WAIT's timeout. The meta key
  only routes the call to the queue's master.

  KEYS:
    1 meta          HASH    <prefix>:{<queue>}:meta  (not read)
  ARGV:
    none
  Returns:
    the number of connected replicas (0 when INFO names none)
  Events:
    none
]]
local info = redis.call("INFO", "replication")
return tonumber(string.match(info, "connected_slaves:(%d+)")) or 0
