--[[
  promoteDelayedJobs: move delayed jobs whose due time has come (due <= now) to wait or
  prioritized, at most `limit` per call and earliest first, so they keep their due order. Their
  waiting events are one stream entry (emitEvents).
  Returns the number promoted.
]]
--- @include "pushReady"
--- @include "emitEvent"
--- @include "emitEvents"

local function promoteDelayedJobs(q, limit)
  if limit <= 0 then
    return 0
  end
  local ids = redis.call("ZRANGEBYSCORE", q.delayed, 0, (q.now + 1) * 4096 - 1, "LIMIT", 0, limit)
  if #ids == 0 then
    return 0
  end
  -- The due ids are the lowest ranks: one removal for the whole batch.
  redis.call("ZREMRANGEBYRANK", q.delayed, 0, #ids - 1)
  for _, id in ipairs(ids) do
    local ready = redis.call("HMGET", q.jobPrefix .. id, "priority", "grp")
    pushReady(q, id, tonumber(ready[1]) or 0, false, ready[2])
  end
  emitEvents(q, "waiting", ids, nil, nil, "prev", "delayed")
  return #ids
end
