--[[
  checkCancels: which of a worker's active jobs were cancelled. Read-only: one call
  per worker every 500 ms while it runs jobs, with all their ids; answers those whose hash has
  the field cancel (set by cancelJob), with the reason. Job keys are built from jobKeyPrefix
  (same slot); the leases key only routes the call to the queue's slot.

  KEYS:
    1 leases        ZSET    <prefix>:{<queue>}:leases  (the active jobs; not read)
  ARGV:
    1 jobKeyPrefix  <prefix>:{<queue>}:job:
    2 jobId...      the worker's active jobs
  Returns:
    {jobId, reason, jobId, reason, ...} the cancelled ones, in the order asked
  Events:
    none
]]
local jobPrefix = ARG.jobKeyPrefix
local out = {}
for i = ARG_FROM.jobId, #ARGV do
  local reason = redis.call("HGET", jobPrefix .. ARGV[i], "cancel")
  if reason then
    out[#out + 1] = ARGV[i]
    out[#out + 1] = reason
  end
end
return out
