--[[
  expiryKey: expiryKey(q) is the queue's expiry ZSET, <prefix>:{<queue>}:expiry, built from the
  context's base or job prefix (same slot as the queue's other keys; see addExpiry).
]]

local function expiryKey(q)
  return (q.base or string.sub(q.jobPrefix, 1, #q.jobPrefix - 4)) .. "expiry"
end
