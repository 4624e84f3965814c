--[[
  promoteDelayedJobs: move delayed jobs whose due time has come (due <= now) to wait or
  prioritized, at most `limit` per call and earliest first, so they keep their due order. Their
  waiting events are one stream entry (emitEvents). `limit` is decimal text (as Redis takes it).
  The earliest delayed job is read first (firstDelayedScore): when it is not due, that is the
  whole look, and the wake times reuse it (nextWakeTimes, takeJobs); a call that promotes leaves
  it unknown.
  Returns the number promoted.
]]
--- @include "pushReady"
--- @include "emitEvent"
--- @include "emitEvents"
--- @include "nextWakeTimes"

local function promoteDelayedJobs(q, limit)
  if tonumber(limit) <= 0 then
    return 0
  end
  local first = firstDelayedScore(q)
  local bound = (q.now + 1) * 4096 - 1
  if not first or tonumber(first) > bound then
    return 0
  end
  q.firstDelayed = nil
  local ids = redis.call("ZRANGEBYSCORE", q.delayed, "0", bound, "LIMIT", "0", limit)
  -- The due ids are the lowest ranks: one removal for the whole batch.
  redis.call("ZREMRANGEBYRANK", q.delayed, "0", #ids - 1)
  for _, id in ipairs(ids) do
    local ready = redis.call("HMGET", q.jobPrefix .. id, "priority", "grp")
    pushReady(q, id, tonumber(ready[1]) or 0, false, ready[2])
  end
  emitEvents(q, "waiting", ids, nil, nil, "prev", "delayed")
  return #ids
end
