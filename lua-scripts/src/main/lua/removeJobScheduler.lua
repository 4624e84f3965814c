--[[
  removeJobScheduler: delete a job scheduler and its pending iteration (unless a worker is
  running it: that job finishes normally); the removed iteration leaves the expiry set
  (dropExpiry). Job keys are built from jobKeyPrefix (same slot).
  With an owner, only a scheduler that carries that owner's mark is removed (a configuration
  removing a scheduler it declared and no longer declares; see upsertJobScheduler).

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
    3 owner         optional: remove only when the scheduler's owner is this one
  Returns:
    1 removed; 0 there was no such scheduler (or, with an owner, none with that owner's mark)
  Events:
    removed (the pending iteration, prev = its state)
]]
--- @include "removeJobData"
--- @include "emitEvent"
--- @include "dropExpiry"

local q = { events = KEY.events, meta = KEY.meta }
if ARG.owner and redis.call("HGET", KEY.scheduler, "owner") ~= ARG.owner then
  return 0
end
local pending = redis.call("HGET", KEY.scheduler, "jobId")
if not pending then
  redis.call("ZREM", KEY.schedulers, ARG.schedulerId)
  return 0
end
if pending ~= "" then
  local prev = false
  if redis.call("ZREM", KEY.delayed, pending) == 1 then
    prev = "delayed"
  elseif redis.call("ZREM", KEY.prioritized, pending) == 1 then
    prev = "prioritized"
  elseif redis.call("LREM", KEY.wait, 0, pending) > 0 then
    prev = "waiting"
  end
  if prev then
    dropExpiry({jobPrefix = ARG.jobKeyPrefix}, pending)
    removeJobData(ARG.jobKeyPrefix, pending)
    emitEvent(q, "removed", pending, "prev", prev)
  end
end
redis.call("DEL", KEY.scheduler)
redis.call("ZREM", KEY.schedulers, ARG.schedulerId)
return 1
