--[[
  popReadyJobs: the pop step of takeJobs. Pops up to f.count ready job ids, wait first (RPOP with
  a count), then prioritized (ZPOPMIN with a count) only when wait came up short. Popped, a job
  is in no state structure until leaseJob adds its lease (the script is atomic, so nothing else
  sees that). Returns the ids in take order and whether the pop came up short (fewer than
  f.count: the ready structures are now empty). A different source of ids (groups, a rate limit
  capping the count) replaces or wraps this step; prepareTakenJob and leaseJob stay as they are.
]]
--- @include "intText"

local function popReadyJobs(q, f)
  local ids = redis.call("RPOP", q.wait, f.countText) or {}
  local short = #ids < f.count
  if short then
    local popped = redis.call("ZPOPMIN", q.prioritized, intText(f.count - #ids))
    for i = 1, #popped, 2 do
      ids[#ids + 1] = popped[i]
    end
    short = #ids < f.count
  end
  return ids, short
end
