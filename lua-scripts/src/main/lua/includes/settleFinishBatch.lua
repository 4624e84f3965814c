--[[
  settleFinishBatch: what moveToFinished does once per call after its records: the accepted jobs
  leave leases (one ZREM), land in completed and failed (one ZADD each), the completed event
  entry still waiting is written, retention runs once per distinct policy of the batch (in order
  of first appearance, after all of the batch's jobs are in their sets), and the completed and
  failed metrics count the batch's jobs. Before the call's fetch, which may take a retried job.
]]
--- @include "landFinished"
--- @include "applyRetention"
--- @include "recordMetric"

local function settleFinishBatch(q, b)
  if #b.leaseIds > 0 then
    redis.call("ZREM", q.leases, unpack(b.leaseIds))
  end
  local adds = b.setAdds[q.completed]
  if #adds > 0 then
    redis.call("ZADD", q.completed, unpack(adds))
  end
  adds = b.setAdds[q.failed]
  if #adds > 0 then
    redis.call("ZADD", q.failed, unpack(adds))
  end
  flushCompleted(q, b)
  for _, p in ipairs(b.policies) do
    applyRetention(p[1], q.jobPrefix, q.now, p[2], p[3], 1000)
  end
  if b.finishedCount.completed > 0 then
    recordMetric(q, "completed", b.finishedCount.completed)
  end
  if b.finishedCount.failed > 0 then
    recordMetric(q, "failed", b.finishedCount.failed)
  end
end
