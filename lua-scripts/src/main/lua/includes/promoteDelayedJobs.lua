--[[
  promoteDelayedJobs: move delayed jobs whose due time has come (due <= now) to wait or
  prioritized, at most `limit` per call and earliest first, so they keep their due order. Their
  waiting events are one stream entry (emitEvents). `limit` is decimal text (as Redis takes it).
  The earliest delayed job is read first (one ZRANGE): when it is not due, that is the whole look,
  and its score is kept as q.firstDelayed (false: none delayed) for the wake time (nextWakeTimes,
  takeJobs); anything that adds to or removes from delayed later in the call clears it (addDelayed,
  expireJobs), and a call that promotes leaves it unknown (nil).
  Returns the number promoted.
]]
--- @include "pushReady"
--- @include "emitEvent"
--- @include "emitEvents"

local function promoteDelayedJobs(q, limit)
  if tonumber(limit) <= 0 then
    return 0
  end
  local first = redis.call("ZRANGE", q.delayed, "0", "0", "WITHSCORES")
  if not first[2] then
    q.firstDelayed = false
    return 0
  end
  local bound = (q.now + 1) * 4096 - 1
  if tonumber(first[2]) > bound then
    q.firstDelayed = first[2]
    return 0
  end
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
