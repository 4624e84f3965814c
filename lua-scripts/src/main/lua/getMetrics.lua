--[[
  getMetrics: the per-minute counts of finished jobs of one kind, read atomically (see the
  recordMetric include for how they are kept). The caller places them on its own clock's
  minutes: the list's first entry is the minute before `minute`. Read-only.

  KEYS:
    1 meta          HASH    <prefix>:{<queue>}:meta  (fields mm:<kind>, mc:<kind>)
    2 metrics       LIST    <prefix>:{<queue>}:metrics:<kind>
  ARGV:
    1 kind          "completed" or "failed"
    2 count         max entries read from the list
  Returns:
    {minute, count, {older counts, newest first}}: the current minute (floor(epoch ms / 60000)
    of the last finish) and its count, -1 and 0 when nothing has been counted yet
  Events:
    none
]]
local stored = redis.call("HMGET", KEY.meta, "mm:" .. ARG.kind, "mc:" .. ARG.kind)
if not stored[1] then
  return {-1, 0, {}}
end
local count = tonumber(ARG.count)
local older = {}
if count > 0 then
  older = redis.call("LRANGE", KEY.metrics, 0, count - 1)
end
return {tonumber(stored[1]), tonumber(stored[2]) or 0, older}
