--[[
  getChildren: a page of a parent job's children in the order they were added (job:<id>:kids,
  a LIST), each with its entry in job:<id>:res (the LIST beside it, see notifyParent): its copied
  outcome, or while it is pending its edge policy (one letter). A child dropped by a REMOVE edge
  ("x") is skipped. The page starts after the child named by after: at once when hint, its index
  read by the caller from the child's own par entry, names it (LINDEX), else found with LPOS (O(n)
  in the children before it: a child removed since). Read-only; the parent's other keys are built
  from its hash key (same slot).

  KEYS:
    1 job           HASH    <prefix>:{<queue>}:job:<id>  (the parent)
  ARGV:
    1 after         the last child of the previous page ("" = from index start)
    2 start         the index to start at when after is "" (0 = the first child)
    3 limit         the most children examined
    4 hint          the index of after among the children, when the caller knows it ("" = find it)
  Returns:
    {total, next, length, child, entry, child, entry, ...};
    total = the children (without those a REMOVE edge dropped); next = the index after the page
    (a page may hold fewer than limit children and still not be the last: it is the last when
    next = length, the length of kids); {0, 0, 0} after a child that is not one of them
  Events:
    none
]]
local parentKey = KEY.job
local kids = parentKey .. ":kids"
local first = tonumber(ARG.start)
if ARG.after ~= "" then
  local at = tonumber(ARG.hint)
  if not at or redis.call("LINDEX", kids, at) ~= ARG.after then
    at = redis.call("LPOS", kids, ARG.after)
  end
  if not at then
    return {0, 0, 0}
  end
  first = at + 1
end
local last = first + tonumber(ARG.limit) - 1
local page = redis.call("LRANGE", kids, first, last)
local length = redis.call("LLEN", kids)
local out = {length - (tonumber(redis.call("HGET", parentKey, "rmk")) or 0), first + #page, length}
if #page == 0 then
  return out
end
local entries = redis.call("LRANGE", parentKey .. ":res", first, last)
for i, child in ipairs(page) do
  if entries[i] ~= "x" then
    out[#out + 1] = child
    out[#out + 1] = entries[i] or ""
  end
end
return out
