--[[
  awaitJob: register awaits on jobs (Queue.awaitResult, addAndAwait, and the awaiter's periodic
  re-read), answering at once for jobs that already finished. For each job id:
  - the job exists and is completed or failed (its state set): its outcome from the hash;
  - the job exists and has not finished: it is marked awaited (field awaited = ttlMs, the larger
    of the old and new ttl), so its finish keeps the result in result:<id> (moveToFinished,
    keepResult). A job already active (in leases) whose worker read the hash before the mark
    also gets awaitLate and bumps meta's awaits, so finishes look at the field per job until
    that job has finished (a job marked before its take costs its finish nothing: the worker
    passes the flag it read). Idempotent: a job already marked is not counted again;
  - no job hash: its kept result (result:<id>) when there is one, else "missing".
  The reply starts with the events stream's newest id: a completed/failed event of a job that
  was pending here has a larger id, so an awaiter reading the stream after it misses none.

  KEYS:
    1 leases        ZSET    <prefix>:{<queue>}:leases  (the active jobs)
    2 completed     ZSET    <prefix>:{<queue>}:completed
    3 failed        ZSET    <prefix>:{<queue>}:failed
    4 meta          HASH    <prefix>:{<queue>}:meta  (awaits)
    5 events        STREAM  <prefix>:{<queue>}:events
  ARGV:
    1 jobKeyPrefix  <prefix>:{<queue>}:job:  (job and result:<id> keys are built from it)
    2 ttlMs         how long a kept result lives after the finish (>= the await's timeout)
    3 jobId...      the jobs to await
  Returns:
    {newestEventId ("0-0" for an empty stream), then per job two values: status, value}:
    status "pending" (value ""), "completed" (value = return value JSON), "failed" (value =
    failedReason) or "missing" (value "": no job and no kept result)
  Events:
    none
]]
--- @include "queueContext"

local q = {jobPrefix = ARG.jobKeyPrefix}
queueContext(q)
local ttl = ARG.ttlMs
local newest = redis.call("XREVRANGE", KEY.events, "+", "-", "COUNT", 1)
local out = {newest[1] and newest[1][1] or "0-0"}
local function answer(status, value)
  out[#out + 1] = status
  out[#out + 1] = value
end

for i = ARG_FROM.jobId, #ARGV do
  local jobId = ARGV[i]
  local jobKey = q.jobPrefix .. jobId
  local job = redis.call("HMGET", jobKey, "name", "returnValue", "failedReason", "awaited")
  if job[1] then
    if redis.call("ZSCORE", KEY.completed, jobId) then
      answer("completed", job[2] or "null")
    elseif redis.call("ZSCORE", KEY.failed, jobId) then
      answer("failed", job[3] or "")
    else
      if not job[4] then
        redis.call("HSET", jobKey, "awaited", ttl)
        if redis.call("ZSCORE", KEY.leases, jobId) then
          redis.call("HSET", jobKey, "awaitLate", "1")
          redis.call("HINCRBY", KEY.meta, "awaits", 1)
        end
      elseif tonumber(job[4]) < tonumber(ttl) then
        redis.call("HSET", jobKey, "awaited", ttl)
      end
      answer("pending", "")
    end
  else
    local kept = redis.call("GET", q.base .. "result:" .. jobId)
    if kept then
      local r = cjson.decode(kept)
      answer(r.state, r.returnValue or r.failedReason or "")
    else
      answer("missing", "")
    end
  end
end
return out
