--[[
  addFlowChildren: append the next children of a flow parent whose children are too many for one
  call (a large fan-out is added in calls that each block Redis briefly). addFlow created the
  parent with its first children, its pending count already the total, and field flow = the
  flow's id; each call here appends the children from index start (addChildEdges: kids, res, the
  pending bits). Idempotent, so a relay may repeat it: only when the parent's flow field still
  names this flow and its kids hold exactly start children does it append; the last call
  (last = "1") removes the flow field. Job-scoped keys only (the parent's kids, res and deps are
  built from its hash key, same slot).

  KEYS:
    1 job           HASH    <prefix>:{<queue>}:job:<id>  (the parent)
  ARGV:
    1 flowId        the flow adding the parent
    2 start         the index of the first child given (the children recorded before this call)
    3 last          "1" when these are the parent's last children, else "0"
    4 children      "<policy><queue>:<id>" per line, policy one of F I R C
  Returns:
    the number of children appended; 0 when the call was applied before (or the parent is not
    this flow's)
  Events:
    none
]]
--- @include "addChildEdges"

local jobKey = KEY.job
if redis.call("HGET", jobKey, "flow") ~= ARG.flowId or redis.call("LLEN", jobKey .. ":kids") ~= tonumber(ARG.start) then
  return 0
end
local added = addChildEdges(jobKey, tonumber(ARG.start), ARG.children)
if ARG.last == "1" then
  redis.call("HDEL", jobKey, "flow")
end
return added
