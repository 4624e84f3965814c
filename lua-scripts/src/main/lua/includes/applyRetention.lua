--[[
  applyRetention: trim a finished set (completed or failed, scored by finishedOn) to a keep
  policy: drop jobs finished at or before now - keepAgeMs, then the oldest beyond keepCount.
  -1 disables a limit. At most `limit` jobs per rule and call, so a huge backlog never blocks
  Redis for long; later calls continue the trimming. Returns the number of jobs removed.
]]
--- @include "removeJobData"

local function applyRetention(setKey, jobPrefix, now, keepCount, keepAgeMs, limit)
  local removed = 0
  if keepAgeMs >= 0 then
    local ids = redis.call("ZRANGEBYSCORE", setKey, "-inf", now - keepAgeMs, "LIMIT", 0, limit)
    removeJobsData(jobPrefix, ids)
    if #ids > 0 then
      redis.call("ZREMRANGEBYRANK", setKey, 0, #ids - 1)
      removed = removed + #ids
    end
  end
  if keepCount >= 0 then
    local excess = redis.call("ZCARD", setKey) - keepCount
    if excess > limit then
      excess = limit
    end
    if excess > 0 then
      local ids = redis.call("ZRANGE", setKey, 0, excess - 1)
      removeJobsData(jobPrefix, ids)
      redis.call("ZREMRANGEBYRANK", setKey, 0, excess - 1)
      removed = removed + excess
    end
  end
  return removed
end
