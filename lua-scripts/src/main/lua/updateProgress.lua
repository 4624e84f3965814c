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

if redis.call("EXISTS", KEY.job) == 0 then
  return -1
end
redis.call("HSET", KEY.job, "progress", ARG.progress)
emitEvent({ events = KEY.events, meta = KEY.meta }, "progress", ARG.jobId, "data", ARG.progress)
return 0
