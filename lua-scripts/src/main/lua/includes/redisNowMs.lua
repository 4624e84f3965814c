--[[
  redisNowMs: Redis's clock in epoch ms (TIME, read once per call and cached in q.redisNow):
  the one clock every worker of a limit shares, whatever the callers' clocks say.
]]
local function redisNowMs(q)
  if not q.redisNow then
    local t = redis.call("TIME")
    q.redisNow = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  end
  return q.redisNow
end
