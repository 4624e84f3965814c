--[[
  updateProgress: store a job's progress (any JSON value) and announce it.

  KEYS:
    1 job           HASH    <prefix>:{<queue>}:job:<id>
    2 events        STREAM  <prefix>:{<queue>}:events
    3 meta          HASH    <prefix>:{<queue>}:meta  (eventsMaxLength)
  ARGV:
    1 jobId         the job's id (for the event)
    2 progress      JSON
  Returns:
    0 stored; -1 job not found
  Events:
    progress (data = the progress JSON)
]]
--- @include "emitEvent"

if redis.call("EXISTS", KEYS[1]) == 0 then
  return -1
end
redis.call("HSET", KEYS[1], "progress", ARGV[2])
emitEvent({ events = KEYS[2], meta = KEYS[3] }, "progress", ARGV[1], "data", ARGV[2])
return 0
