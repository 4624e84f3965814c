--[[
  nextGroupRelease: the earliest time (epoch ms, Redis's clock) a rate-limited group may start
  its next job (groups:limited), -1 when none. earliestWake(a, b): the earlier of two wake times,
  -1 meaning none. An idle worker's timer must cover it: nothing else signals the release.
]]
--- @include "readMeta"
--- @include "groups"

local function nextGroupRelease(q)
  -- Only groups are ever in groups:limited: a queue without them skips the read.
  readMeta(q)
  if not q.groupsOn then
    return -1
  end
  groups(q)
  local first = redis.call("ZRANGE", q.groupsLimited, 0, 0, "WITHSCORES")
  return first[2] and tonumber(first[2]) or -1
end

local function earliestWake(a, b)
  if a < 0 or (b >= 0 and b < a) then
    return b
  end
  return a
end
