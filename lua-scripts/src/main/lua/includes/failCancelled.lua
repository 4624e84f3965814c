--[[
  failCancelled: a cancelled job ends in failed for good (never retried): failedReason
  "cancelled: <reason>", finishedOn, attemptsMade (atm; nil = left as it is), into failed with
  its own removeOnFail retention read from its opts (the caller has no JobOptions: a producer's
  cancel, a stalled job, a rate-limit put-back), the failed metric and a failed event with
  cancelled = 1 (prev = the state it left). The caller has taken the job out of its state and
  given back its group slot or group place. A job cancelled before it started leaves the expiry
  set (dropExpiry, when it has a deadline: field xp). Tells the parents of a job in a flow (its par field;
  notifyParent, before retention may delete it), then ends it as notifyParent's F.endFailed ends
  every job failed for good outside a finish (a flow parent failed by its child too): releases
  its deduplication id (a kept add becomes a job), keeps its result for awaiters when it is
  awaited, retention, metric. Needs q.failed, q.events, q.meta,
  q.jobPrefix, q.now and what endDeduplication needs (q.id, q.wait, q.prioritized, q.delayed,
  q.marker); counts in q.metrics.failed when present.
]]
--- @include "intText"
--- @include "notifyParent"
--- @include "dropExpiry"

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
  local stored = redis.call("HMGET", jobKey, "opts", "dedupId", "awaited", "awaitLate", "par", "xp")
  if stored[6] and prev ~= "active" then
    -- Cancelled before it started: its expiry deadline goes (a started job left the set at its take).
    dropExpiry(q, jobId)
  end
  if stored[5] then
    notifyParent(q, jobId, stored[5], "failed", failedReason)
  end
  notifyParent(q).endFailed(jobId, failedReason, stored, "failedReason", failedReason, "attemptsMade", attemptsMade,
    "prev", prev, "cancelled", "1")
end
