--[[
  groupWindow: the grouped pick's view of groups:ready (see pickReadyJobs). groupWindow(G),
  called once by the call's first grouped take, returns four functions: readWindow(q, size) reads
  the lowest size members ({g, tag}, in tag order; the encoding member skipped) and the last one's
  tag when there may be more (nil: the window holds them all); insertByTag(win, e) puts a re-tagged
  member back in order (ties by name, as the ZSET orders them); tagText(tag) writes a tag ("%d"
  while it is whole, half the cost of "%.17g"); writeTags(q, retagged) writes the window's new tags
  with one ZADD XX (a group a visit removed stays removed).
]]
--- @include "intText"

local function groupWindow(G)
  -- Up to size of the lowest members of groups:ready, in order ({g, tag}), and the last one's tag
  -- when there may be more (nil: the window holds them all).
  -- The encoding member (last, at 2^53) is skipped: a window that reached it holds every group.
  local function readWindow(q, size)
    local r = redis.call("ZRANGE", q.groupsReady, "0", intText(size - 1), "WITHSCORES")
    local win = {}
    for i = 1, #r, 2 do
      if r[i] ~= G.encodingMember then
        win[#win + 1] = {g = r[i], tag = tonumber(r[i + 1])}
      end
    end
    return win, (#win == size and win[#win].tag or nil)
  end

  -- Puts e back into the window in tag order (ties by name, as the ZSET orders them).
  local function insertByTag(win, e)
    local i = #win + 1
    while i > 1 and (win[i - 1].tag > e.tag or (win[i - 1].tag == e.tag and win[i - 1].g > e.g)) do
      win[i] = win[i - 1]
      i = i - 1
    end
    win[i] = e
  end

  -- A tag as text: "%d" while it is whole (weights 1: always), which costs half of "%.17g".
  local function tagText(tag)
    if tag % 1 == 0 then
      return string.format("%d", tag)
    end
    return string.format("%.17g", tag)
  end

  local function writeTags(q, retagged)
    local args = {}
    for g, tag in pairs(retagged) do
      args[#args + 1] = tagText(tag)
      args[#args + 1] = g
    end
    if #args > 0 then
      redis.call("ZADD", q.groupsReady, "XX", unpack(args))
    end
  end

  return readWindow, insertByTag, tagText, writeTags
end
