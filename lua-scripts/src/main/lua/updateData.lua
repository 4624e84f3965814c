--[[
  updateData: replaces the data of an unfinished job (waiting, prioritized, delayed or active: a
  running attempt keeps the data it read; the next attempt reads the new data). A completed or
  failed job is refused and nothing is written.

  KEYS:
    1 completed     ZSET    <prefix>:{<queue>}:completed
    2 failed        ZSET    <prefix>:{<queue>}:failed
    3 meta          HASH    <prefix>:{<queue>}:meta  (eventsMaxLength)
    4 events        STREAM  <prefix>:{<queue>}:events
  ARGV:
    1 jobKeyPrefix  <prefix>:{<queue>}:job:
    2 jobId         the job
    3 data          the new data (JSON)
  Returns:
    {0} updated; {-1} job not found; {-5, state} the job is finished (completed | failed)
  Events:
    dataUpdated
]]
--- @include "emitEvent"

local q = { completed = KEY.completed, failed = KEY.failed, meta = KEY.meta, events = KEY.events, jobPrefix = ARG.jobKeyPrefix }
local jobId = ARG.jobId
local jobKey = q.jobPrefix .. jobId
if redis.call("EXISTS", jobKey) == 0 then
  return {-1}
end
for _, s in ipairs({{q.completed, "completed"}, {q.failed, "failed"}}) do
  if redis.call("ZSCORE", s[1], jobId) then
    return {-5, s[2]}
  end
end
redis.call("HSET", jobKey, "data", ARG.data)
emitEvent(q, "dataUpdated", jobId)
return {0}
