--[[
  emitEvent: append one lifecycle event to the queue's stream in the same script as the change,
  capped with MAXLEN ~ so the stream stays bounded. jobId is nil for queue-level events.
]]
local function emitEvent(q, event, jobId, ...)
  if jobId then
    return redis.call("XADD", q.events, "MAXLEN", "~", q.maxLen, "*", "event", event, "jobId", jobId, ...)
  end
  return redis.call("XADD", q.events, "MAXLEN", "~", q.maxLen, "*", "event", event, ...)
end
