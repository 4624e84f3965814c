--[[
  removeExpiredJobs: the janitor. Looks at the `limit` oldest jobs of completed and of failed and
  deletes those older than their own retention age (opts.removeOnComplete.age or
  opts.removeOnFail.age, in ms), so age retention holds even when no other job finishes.
  Jobs kept for ever at the head of a set are examined again on each call; the cost stays
  bounded by `limit`. Returns the number removed.
]]
--- @include "removeJobData"

local function removeExpiredFrom(setKey, field, jobPrefix, now, limit)
  local removed = 0
  local entries = redis.call("ZRANGE", setKey, 0, limit - 1, "WITHSCORES")
  for i = 1, #entries, 2 do
    local id, finishedOn = entries[i], tonumber(entries[i + 1])
    local opts = redis.call("HGET", jobPrefix .. id, "opts")
    if opts and opts ~= "" then
      local keep = cjson.decode(opts)[field]
      if type(keep) == "table" and type(keep["age"]) == "number" and finishedOn <= now - keep["age"] then
        removeJobData(jobPrefix, id)
        redis.call("ZREM", setKey, id)
        removed = removed + 1
      end
    end
  end
  return removed
end

local function removeExpiredJobs(q, limit)
  if limit <= 0 then
    return 0
  end
  return removeExpiredFrom(q.completed, "removeOnComplete", q.jobPrefix, q.now, limit)
      + removeExpiredFrom(q.failed, "removeOnFail", q.jobPrefix, q.now, limit)
end
