--[[
  addSidePaths: the functions an add call (addJob, addCoalesced through insertJob) needs only for
  a job that is not plain: addSidePaths(q) returns them as a table S, built by the call's first
  use and kept in q.addSidePaths for the rest of the call:
    S.claimDeduplication  a job with a deduplication id (claimDeduplication)
    S.groups              a grouped job's keys and the group functions (groups)
    S.pushReady           a grouped or prioritized job (pushReady; insertJob pushes a plain job
                          to wait itself)
    S.addDelayed          a delayed job (addDelayed)
    S.addExpiry           a job whose opts name an expiry deadline (addExpiry)
  Each function a script defines at its top level is made again on every call (a closure per
  call, and its upvalues): defined here, in a function a plain add never calls, they cost a plain
  add nothing (docs/adr/0008-lua-cost-rules.md, rules 4 and 8). Building them also sets
  q.prioritized and q.delayed (the add scripts do not take them as KEYS: only these paths touch
  them). The includes inside the builder are expanded there, so whatever a script's top level
  calls (readMeta, signalWorkers, emitEvent) must be included before this include.
]]
--- @include "readMeta"
--- @include "signalWorkers"
--- @include "emitEvent"

local function addSidePaths(q)
  if q.addSidePaths then
    return q.addSidePaths
  end
  --- @include "claimDeduplication"
  --- @include "pushReady"
  --- @include "queueContext"
  -- Only these paths use prioritized and delayed: built from the base (same slot), not KEYS,
  -- which would cost every add two arguments (docs/adr/0008-lua-cost-rules.md, rule 2).
  if not q.base then
    queueContext(q)
  end
  q.prioritized, q.delayed = q.base .. "prioritized", q.base .. "delayed"
  local S = {
    claimDeduplication = claimDeduplication, groups = groups, pushReady = pushReady, addDelayed = addDelayed,
    addExpiry = addExpiry
  }
  q.addSidePaths = S
  return S
end
