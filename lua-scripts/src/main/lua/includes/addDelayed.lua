--[[
  addDelayed: schedule a job at due (epoch ms). Score = due * 4096 + (sequence mod 4096), so jobs
  due in the same millisecond run in insertion order. Only a job that becomes the earliest
  delayed one needs to wake workers: their timers already cover later ones. Clears
  q.firstDelayed (the earliest delayed job as promoteDelayedJobs saw it).
]]
--- @include "signalWorkers"

local function addDelayed(q, jobId, due)
  local seq = redis.call("HINCRBY", q.meta, "seq", 1)
  redis.call("ZADD", q.delayed, due * 4096 + (seq % 4096), jobId)
  q.firstDelayed = nil
  if redis.call("ZRANK", q.delayed, jobId) == 0 then
    signalWorkers(q, due)
  end
end
