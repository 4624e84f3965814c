--[[
  endFailed: the rest of the end of a job that failed for good outside a worker's finish (a
  cancelled job, one that stalled too often, a flow parent failed by its child), once the caller
  has written its failedReason and finishedOn, taken it out of its state and told its parents
  (notifyParent, while its hash is there). stored is the job's HMGET of opts, dedupId, awaited,
  awaitLate. Then, as a worker's finish does for a job failed for good: the failed event (...: its
  fields after the job id), the deduplication id released (endDeduplication), the result kept for
  awaiters (keepResult) when it is awaited (a late await resolved: awaitLate removed, meta awaits
  - 1), into failed with its own removeOnFail retention read from its opts (count 0: deleted), and
  the failed metric (when q.metrics.failed is set). Needs q.failed, q.events, q.meta, q.jobPrefix,
  q.now, q.nowText and what endDeduplication needs (q.id, q.wait, q.prioritized, q.delayed,
  q.marker).
]]
--- @include "applyRetention"
--- @include "removeJobData"
--- @include "recordMetric"
--- @include "emitEvent"
--- @include "endDeduplication"
--- @include "keepResult"

local function endFailed(q, jobId, failedReason, stored, ...)
  local keepCount, keepAgeMs = -1, -1
  local opts = stored[1]
  if opts and opts ~= "" then
    local keep = cjson.decode(opts)["removeOnFail"]
    if type(keep) == "table" then
      keepCount = tonumber(keep["count"]) or -1
      keepAgeMs = tonumber(keep["age"]) or -1
    end
  end
  emitEvent(q, "failed", jobId, ...)
  endDeduplication(q, jobId, stored[2])
  if stored[3] then
    -- Someone awaits it (awaitJob/addAndAwait): the result outlives the job for them.
    keepResult(q, jobId, stored[3], "failed", failedReason)
  end
  if stored[4] then
    -- An await registered while it ran: its end, this, resolves it (meta awaits - 1).
    redis.call("HDEL", q.jobPrefix .. jobId, "awaitLate")
    redis.call("HINCRBY", q.meta, "awaits", -1)
  end
  if keepCount == 0 then
    removeJobData(q.jobPrefix, jobId)
  else
    redis.call("ZADD", q.failed, q.nowText, jobId)
    if keepCount > 0 or keepAgeMs >= 0 then
      applyRetention(q.failed, q.jobPrefix, q.now, keepCount, keepAgeMs, 1000)
    end
  end
  recordMetric(q, "failed")
end
