--[[
  pushReady: put a job where workers take it. A priority > 0 goes to prioritized (score =
  priority * 2^32 + a per-queue sequence, so equal priorities run FIFO); otherwise wait, which
  workers take from the right: LPUSH queues at the back, RPUSH (front = true) runs next.
  Returns the state label the job is now in; sets q.waitLength to wait's length after a push
  to wait.
]]
local function pushReady(q, jobId, priority, front)
  if priority > 0 then
    local seq = redis.call("HINCRBY", q.meta, "seq", 1)
    redis.call("ZADD", q.prioritized, priority * 4294967296 + (seq % 4294967296), jobId)
    return "prioritized"
  end
  if front then
    q.waitLength = redis.call("RPUSH", q.wait, jobId)
  else
    q.waitLength = redis.call("LPUSH", q.wait, jobId)
  end
  return "waiting"
end
