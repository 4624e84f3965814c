--[[
  removeJobScheduler: delete a job scheduler and its pending iteration (unless a worker is
  running it: that job finishes normally). Job keys are built from jobKeyPrefix (same slot).

  KEYS:
    1 schedulers    ZSET    <prefix>:{<queue>}:schedulers
    2 scheduler     HASH    <prefix>:{<queue>}:scheduler:<id>
    3 wait          LIST    <prefix>:{<queue>}:wait
    4 prioritized   ZSET    <prefix>:{<queue>}:prioritized
    5 delayed       ZSET    <prefix>:{<queue>}:delayed
    6 events        STREAM  <prefix>:{<queue>}:events
    7 meta          HASH    <prefix>:{<queue>}:meta  (eventsMaxLength)
  ARGV:
    1 jobKeyPrefix  <prefix>:{<queue>}:job:
    2 schedulerId   the scheduler
  Returns:
    1 removed; 0 there was no such scheduler
  Events:
    removed (the pending iteration, prev = its state)
]]
--- @include "removeJobData"
--- @include "emitEvent"

local q = { events = KEYS[6], meta = KEYS[7] }
local pending = redis.call("HGET", KEYS[2], "jobId")
if not pending then
  redis.call("ZREM", KEYS[1], ARGV[2])
  return 0
end
if pending ~= "" then
  local prev = false
  if redis.call("ZREM", KEYS[5], pending) == 1 then
    prev = "delayed"
  elseif redis.call("ZREM", KEYS[4], pending) == 1 then
    prev = "prioritized"
  elseif redis.call("LREM", KEYS[3], 0, pending) > 0 then
    prev = "waiting"
  end
  if prev then
    removeJobData(ARGV[1], pending)
    emitEvent(q, "removed", pending, "prev", prev)
  end
end
redis.call("DEL", KEYS[2])
redis.call("ZREM", KEYS[1], ARGV[2])
return 1
