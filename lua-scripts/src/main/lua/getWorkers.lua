--[[
  getWorkers: the queue's live workers, from their heartbeats. First drops entries whose expiry
  passed (Redis clock, at most `limit`), then returns the rest. Needs no CLIENT command, so it
  works on Cluster, with restricted ACLs and on managed Redis.

  KEYS:
    1 workers       HASH    <prefix>:{<queue>}:workers  (worker name -> JSON)
    2 workersSeen   ZSET    <prefix>:{<queue>}:workers:seen  (worker name -> expiry ms, Redis clock)
  ARGV:
    1 limit         most live workers returned, and most expired entries dropped, in this call
  Returns:
    {JSON entry, ...} of the live workers, in name order
  Events:
    none
]]
--- @include "dropExpiredWorkers"

local limit = tonumber(ARG.limit)
local t = redis.call("TIME")
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)

dropExpiredWorkers(KEY.workers, KEY.workersSeen, now, limit)
local names = redis.call("ZRANGE", KEY.workersSeen, "(" .. now, "+inf", "BYSCORE", "LIMIT", 0, limit)
if #names == 0 then
  return {}
end
table.sort(names)
local entries = redis.call("HMGET", KEY.workers, unpack(names))
local live = {}
for _, entry in ipairs(entries) do
  if entry then
    live[#live + 1] = entry
  end
end
return live
