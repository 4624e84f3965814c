--[[
  releaseDeduplication: a job with deduplication id dedupId is removed (remove, clean, drain,
  obliterate, a cancel): when dedup:<dedupId> still names jobId, delete it and any add kept for
  after it (keepLastIfActive), whatever the mode (a ttl key too). O(1). No-op for dedupId nil or
  "" (a job without one). A job that ends by running (completed, failed for good) calls
  endDeduplication instead, which also starts a kept add.
]]
--- @include "queueContext"

local function releaseDeduplication(q, jobId, dedupId)
  if not dedupId or dedupId == "" then
    return
  end
  if not q.base then
    queueContext(q)
  end
  local key = q.base .. "dedup:" .. dedupId
  if redis.call("GET", key) == jobId then
    redis.call("DEL", key, key .. ":next")
  end
end
