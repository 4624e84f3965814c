--[[
  failCancelled: a cancelled job ends in failed for good (never retried): failedReason
  "cancelled: <reason>", finishedOn, attemptsMade (atm; nil = left as it is), into failed with
  its own removeOnFail retention read from its opts (the caller has no JobOptions: a producer's
  cancel, a stalled job, a rate-limit put-back), the failed metric and a failed event with
  cancelled = 1 (prev = the state it left). The caller has taken the job out of its state and
  given back its group slot or group place. Releases its deduplication id (endDeduplication: a
  kept add becomes a job), keeps its result for awaiters (keepResult) when it is awaited, and tells
  the parents of a job in a flow (its par field; notifyParent, before retention may delete it). Needs q.failed, q.events, q.meta, q.jobPrefix, q.now and what
  endDeduplication needs (q.id, q.wait, q.prioritized, q.delayed, q.marker); counts in
  q.metrics.failed when present.
]]
--- @include "applyRetention"
--- @include "removeJobData"
--- @include "recordMetric"
--- @include "emitEvent"
--- @include "intText"
--- @include "endDeduplication"
--- @include "keepResult"
--- @include "notifyParent"

local function failCancelled(q, jobId, reason, attemptsMade, prev)
  local jobKey = q.jobPrefix .. jobId
  local failedReason = "cancelled: " .. reason
  local nowText = intText(q.now)
  if attemptsMade then
    redis.call("HSET", jobKey, "failedReason", failedReason, "finishedOn", nowText, "atm", attemptsMade)
  else
    redis.call("HSET", jobKey, "failedReason", failedReason, "finishedOn", nowText)
    attemptsMade = redis.call("HGET", jobKey, "atm") or "0"
  end
  local keepCount, keepAgeMs = -1, -1
  local stored = redis.call("HMGET", jobKey, "opts", "dedupId", "awaited", "awaitLate", "par")
  if stored[5] then
    notifyParent(q, jobId, stored[5], "failed", failedReason)
  end
  local opts = stored[1]
  if opts and opts ~= "" then
    local keep = cjson.decode(opts)["removeOnFail"]
    if type(keep) == "table" then
      keepCount = tonumber(keep["count"]) or -1
      keepAgeMs = tonumber(keep["age"]) or -1
    end
  end
  emitEvent(q, "failed", jobId, "failedReason", failedReason, "attemptsMade", attemptsMade, "prev", prev,
    "cancelled", "1")
  endDeduplication(q, jobId, stored[2])
  if stored[3] then
    -- Someone awaits it (awaitJob/addAndAwait): the result outlives the job for them.
    keepResult(q, jobId, stored[3], "failed", failedReason)
  end
  if stored[4] then
    -- An await registered while it ran: its finish, this, resolves it (meta awaits - 1).
    redis.call("HDEL", jobKey, "awaitLate")
    redis.call("HINCRBY", q.meta, "awaits", -1)
  end
  if keepCount == 0 then
    removeJobData(q.jobPrefix, jobId)
  else
    redis.call("ZADD", q.failed, nowText, jobId)
    if keepCount > 0 or keepAgeMs >= 0 then
      applyRetention(q.failed, q.jobPrefix, q.now, keepCount, keepAgeMs, 1000)
    end
  end
  recordMetric(q, "failed")
end
