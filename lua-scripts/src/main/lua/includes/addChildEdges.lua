--[[
  addChildEdges: append children to a flow parent, from index start (the length of its kids
  before the call). children is "<policy><queue>:<id>" per line (policy F, I, R or C). Each child
  is appended to job:<id>:kids (its "<queue>:<id>") and job:<id>:res (its policy, replaced by its
  outcome when it ends), and its bit set in job:<id>:deps, the pending children as a bitmap by
  index (a STRING: 1 bit per child, where a SET of indexes costs ~50 bytes per entry beyond 512
  entries): whole bytes of pending bits are written with one SETRANGE, the ends with SETBIT. The
  caller keeps the parent's pending count (field pending). Returns how many children it appended.
]]

local function addChildEdges(jobKey, start, children)
  local kidsKey, resultsKey, pendingKey = jobKey .. ":kids", jobKey .. ":res", jobKey .. ":deps"
  local all, policies = {}, {}
  local count = 0
  -- In batches of 500 children: unpack has a stack limit.
  for c in string.gmatch(children, "[^\n]+") do
    all[#all + 1] = string.sub(c, 2)
    policies[#policies + 1] = string.sub(c, 1, 1)
    count = count + 1
    if #all == 500 then
      redis.call("RPUSH", kidsKey, unpack(all))
      redis.call("RPUSH", resultsKey, unpack(policies))
      all, policies = {}, {}
    end
  end
  if #all > 0 then
    redis.call("RPUSH", kidsKey, unpack(all))
    redis.call("RPUSH", resultsKey, unpack(policies))
  end
  local i, stop = start, start + count
  while i < stop and i % 8 ~= 0 do
    redis.call("SETBIT", pendingKey, i, 1)
    i = i + 1
  end
  local bytes = math.floor((stop - i) / 8)
  if bytes > 0 then
    redis.call("SETRANGE", pendingKey, i / 8, string.rep("\255", bytes))
    i = i + bytes * 8
  end
  while i < stop do
    redis.call("SETBIT", pendingKey, i, 1)
    i = i + 1
  end
  return count
end
