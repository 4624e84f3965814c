--[[
  getChildren: a page of a parent job's children in child order ("<queue>:<id>", from
  job:<id>:kids), each with its copied outcome (job:<id>:res) or, while it is pending, its edge
  policy (job:<id>:deps). Read-only; the parent's other keys are built from its hash key (same slot).

  KEYS:
    1 job           HASH    <prefix>:{<queue>}:job:<id>  (the parent)
  ARGV:
    1 after         the last child of the previous page ("" = from the first)
    2 limit         the most children returned
  Returns:
    {total, child, outcome ("" = none), policy ("" = not pending), child, ...}; total = all children
  Events:
    none
]]
local parentKey = KEY.job
local kids = parentKey .. ":kids"
local from = ARG.after == "" and "-" or "(" .. ARG.after
local page = redis.call("ZRANGEBYLEX", kids, from, "+", "LIMIT", 0, tonumber(ARG.limit))
local out = {redis.call("ZCARD", kids)}
if #page == 0 then
  return out
end
local resultsKey, pendingKey = parentKey .. ":res", parentKey .. ":deps"
local outcomes = redis.call("HMGET", resultsKey, unpack(page))
local policies = redis.call("HMGET", pendingKey, unpack(page))
for i, child in ipairs(page) do
  out[#out + 1] = child
  out[#out + 1] = outcomes[i] or ""
  out[#out + 1] = policies[i] or ""
end
return out
