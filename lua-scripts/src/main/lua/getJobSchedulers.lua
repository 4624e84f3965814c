--[[
  getJobSchedulers: every job scheduler of the queue with its definition, read atomically, in
  next-run order. Read-only. Scheduler keys are built from schedulerPrefix (same slot).

  KEYS:
    1 schedulers    ZSET    <prefix>:{<queue>}:schedulers
  ARGV:
    1 schedulerPrefix  <prefix>:{<queue>}:scheduler:
  Returns:
    {{schedulerId, {hash field, value, ...}}, ...}
  Events:
    none
]]
local result = {}
for _, id in ipairs(redis.call("ZRANGE", KEY.schedulers, 0, -1)) do
  result[#result + 1] = {id, redis.call("HGETALL", ARG.schedulerPrefix .. id)}
end
return result
