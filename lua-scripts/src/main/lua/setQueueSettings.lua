--[[
  setQueueSettings: store the queue-wide settings in the queue's meta hash, where the scripts of
  every client (producers, workers, admin) read them once per call (see readMeta), so a setting
  made by one Queue applies to all. Each setting is an ARGV; "" leaves it as it is.
  Field eventsMaxLength: the approximate cap of the events stream (absent = 10000).

  KEYS:
    1 meta          HASH    <prefix>:{<queue>}:meta
  ARGV:
    1 eventsMaxLength  a whole number >= 1 written as digits, or "" = unchanged
  Returns:
    {previous eventsMaxLength or "" when none was stored}
  Events:
    none
]]
local previous = redis.call("HGET", KEY.meta, "eventsMaxLength") or ""
local eventsMaxLength = ARG.eventsMaxLength
if eventsMaxLength ~= "" then
  -- XADD would reject anything else in every later script of the queue: refuse it here.
  if not string.match(eventsMaxLength, "^[1-9]%d*$") or #eventsMaxLength > 19 then
    return redis.error_reply("ERR eventsMaxLength must be a whole number >= 1 but was '" .. eventsMaxLength .. "'")
  end
  if previous ~= eventsMaxLength then
    redis.call("HSET", KEY.meta, "eventsMaxLength", eventsMaxLength)
  end
end
return {previous}
