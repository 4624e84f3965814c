--[[
  emitEvent: append one lifecycle event to the queue's stream in the same script as the change,
  capped with MAXLEN ~ so the stream stays bounded: the cap is the queue's eventsMaxLength
  setting in meta (q.meta), read once per call by readMeta. A caller that sets q.trimLazily
  reads the cap itself when it chooses (addJob): until then its events go in untrimmed.
  jobId is nil for queue-level events.
  emitEvents (a batch of one event kind as one entry) is its own include (emitEvents): a script
  that never batches does not define it (each function a call defines costs it ~400-750
  instructions, docs/adr/0008-lua-cost-rules.md).
]]
--- @include "readMeta"

local function emitEvent(q, event, jobId, ...)
  if not q.trimLazily then
    readMeta(q)
  end
  if not q.maxLen then
    if jobId then
      return redis.call("XADD", q.events, "*", "event", event, "jobId", jobId, ...)
    end
    return redis.call("XADD", q.events, "*", "event", event, ...)
  end
  if jobId then
    return redis.call("XADD", q.events, "MAXLEN", "~", q.maxLen, "*", "event", event, "jobId", jobId, ...)
  end
  return redis.call("XADD", q.events, "MAXLEN", "~", q.maxLen, "*", "event", event, ...)
end
