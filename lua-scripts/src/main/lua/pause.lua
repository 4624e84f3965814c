--[[
  pause: pause or resume a queue. A paused queue keeps accepting jobs but workers take none
  (moveToActive honours the flag); active jobs finish normally. Resuming wakes the workers.

  KEYS:
    1 meta          HASH    <prefix>:{<queue>}:meta  (fields paused, eventsMaxLength)
    2 marker        ZSET    <prefix>:{<queue>}:marker
    3 events        STREAM  <prefix>:{<queue>}:events
  ARGV:
    1 action        "pause" or "resume"
  Returns:
    1 the state changed; 0 it was already so
  Events:
    paused, resumed
]]
--- @include "emitEvent"

local q = { meta = KEY.meta, marker = KEY.marker, events = KEY.events }
if ARG.action == "pause" then
  if redis.call("HSETNX", q.meta, "paused", 1) == 0 then
    return 0
  end
  -- Workers woken now would find nothing to take.
  redis.call("DEL", q.marker)
  emitEvent(q, "paused", nil)
  return 1
end
if redis.call("HDEL", q.meta, "paused") == 0 then
  return 0
end
redis.call("ZADD", q.marker, 0, "0")
emitEvent(q, "resumed", nil)
return 1
