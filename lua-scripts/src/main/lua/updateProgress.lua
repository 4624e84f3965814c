--[[
  updateProgress: store a job's progress (any JSON value) and announce it.

  KEYS:
    1 job           HASH    <prefix>:{<queue>}:job:<id>
    2 events        STREAM  <prefix>:{<queue>}:events
  ARGV:
    1 eventsMaxLen  approximate cap of the events stream
    2 jobId         the job's id (for the event)
    3 progress      JSON
  Returns:
    0 stored; -1 job not found
  Events:
    progress (data = the progress JSON)
]]
--- @include "emitEvent"

if redis.call("EXISTS", KEYS[1]) == 0 then
  return -1
end
redis.call("HSET", KEYS[1], "progress", ARGV[3])
emitEvent({ events = KEYS[2], maxLen = ARGV[1] }, "progress", ARGV[2], "data", ARGV[3])
return 0
