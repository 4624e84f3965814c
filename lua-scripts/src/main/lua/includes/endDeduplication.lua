--[[
  endDeduplication: a job with deduplication id dedupId ended (completed, failed for good, also
  failed as stalled or cancelled). O(1), and only when dedup:<dedupId> still names jobId: an add
  kept for after it (keepLastIfActive) becomes a new job owning the id (addDeduplicationNext);
  else a key with an expiry (ttl mode: one job per id per ttl) is left to expire; else it is
  deleted. No-op for dedupId nil or "" (a job without one). The caller's q needs id and delayed
  besides what pushReady needs (a kept add may be delayed).
]]
--- @include "addDeduplicationNext"
--- @include "queueContext"

local function endDeduplication(q, jobId, dedupId)
  if not dedupId or dedupId == "" then
    return
  end
  if not q.base then
    queueContext(q)
  end
  local key = q.base .. "dedup:" .. dedupId
  if redis.call("GET", key) ~= jobId then
    return
  end
  if redis.call("EXISTS", key .. ":next") == 1 then
    addDeduplicationNext(q, key)
  elseif redis.call("PTTL", key) < 0 then
    redis.call("DEL", key)
  end
end
