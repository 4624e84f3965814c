--[[
  pickReadyJobs: the pop step of takeJobs. Without groups (meta flag groups unset) it is
  popReadyJobs. With groups it serves groups:ready by start-time fair queueing: the member with
  the lowest tag gives as many jobs as it may before its tag passes the runner-up's (one
  ZPOPMIN per group visit), its tag grows by jobs / weight, and it leaves groups:ready when it
  is empty, paused, at its concurrency or held back by its rate limit (then to groups:limited).
  The lowest members are read a window at a time (one ZRANGE of min(count, 16) + 1, O(log
  groups)) and kept in tag order here while the visits re-tag them; members beyond the window
  have tags at least the window's last, so the window's first is the lowest while its tag is at
  most that one (else the window is read again). The new tags are written with one ZADD XX per
  window (XX: a group a visit removed stays removed). Member "" is the ungrouped jobs (wait, then
  prioritized), weight 1; it is (re)entered here when they exist, so adds of ungrouped jobs
  cost nothing more. Before picking, due groups of groups:limited come back (at most 100).
  Group rate limits (GCRA on Redis's clock) do not book ahead: a job starts now or its group
  waits. Each taken grouped job counts in its group's active (q.takenGroup[id] = its group, so
  the take can give back the slot of one it drops); gout (grouped ready jobs that left) and gvt
  are written once per call, with one HSET (gout from readMeta's read). Takes at most f.count.
  Returns the ids in take order and whether nothing is left ready (no eligible group and no
  ungrouped job).
]]
--- @include "popReadyJobs"
--- @include "groups"
--- @include "redisNowMs"
--- @include "intText"
--- @include "readMeta"
--- @include "groupWindow"

-- The grouped pick and its helpers, built by a call's first grouped take (kept in q.groupPick:
-- per call, as every state): a call pays for each top-level function a script defines, so a
-- queue without groups does not pay for these (nor for groupWindow's).
local function buildGroupPick(G)
  local function releaseLimitedGroups(q)
    -- Only a group setting, default or manual group limit puts a group there (meta gsettings).
    if not q.gSettings then
      return
    end
    -- The clock is read only when some group is limited.
    local first = redis.call("ZRANGE", q.groupsLimited, 0, 0, "WITHSCORES")
    if not first[2] or tonumber(first[2]) > redisNowMs(q) then
      return
    end
    local due = redis.call("ZRANGEBYSCORE", q.groupsLimited, "-inf", redisNowMs(q), "LIMIT", 0, 100)
    if #due > 0 then
      redis.call("ZREM", q.groupsLimited, unpack(due))
      for _, g in ipairs(due) do
        G.ready(q, g)
      end
    end
  end

  -- Up to n ungrouped ids appended to ids; returns how many.
  local function popUngrouped(q, n, ids)
    local popped = redis.call("RPOP", q.wait, intText(n)) or {}
    for _, id in ipairs(popped) do
      ids[#ids + 1] = id
    end
    if #popped < n then
      local more = redis.call("ZPOPMIN", q.prioritized, intText(n - #popped))
      for i = 1, #more, 2 do
        ids[#ids + 1] = more[i]
      end
      return #popped + #more / 2
    end
    return #popped
  end

  -- How many of n jobs the group's rate limit lets start now; advances s.tat for them.
  local function rateAllowance(q, s, n)
    if not s.rateMax then
      return n
    end
    local now, interval = redisNowMs(q), s.ratePer / s.rateMax
    local k = 0
    while k < n and now >= s.tat - s.rateBurst * interval do
      s.tat = math.max(s.tat, now) + interval
      k = k + 1
    end
    return k
  end

  -- One visit of group g (tag, runner-up tag or nil): takes what it may; returns its new tag, or
  -- nil when it left groups:ready (parked, or emptied).
  local function serveGroup(q, g, tag, nextTag, want, ids)
    local jobsKey, stateKey = groups(q, g)
    local s = G.state(q, stateKey)
    local n = want
    if nextTag then
      n = math.min(n, math.floor((nextTag - tag) * s.weight) + 1)
    end
    if s.concurrency then
      n = math.min(n, s.concurrency - s.active)
    end
    if s.paused or G.nextStart(q, s) > 0 then
      n = 0
    end
    local got = 0
    if n > 0 then
      local oldTat = s.tat
      n = rateAllowance(q, s, n)
      local popped = n > 0 and redis.call("ZPOPMIN", jobsKey, intText(n)) or {}
      got = #popped / 2
      for i = 1, #popped, 2 do
        ids[#ids + 1] = popped[i]
        q.takenGroup[popped[i]] = g
      end
      if got > 0 then
        s.active = redis.call("HINCRBY", stateKey, "active", intText(got))
        q.gTaken = q.gTaken + got
      end
      if s.rateMax then
        if got < n then
          -- The group ran out: only the starts made count.
          s.tat = oldTat
          rateAllowance(q, s, got)
        end
        if got > 0 then
          redis.call("HSET", stateKey, "rl:tat", string.format("%.3f", s.tat))
        end
      end
    end
    local blocked = s.paused or (s.concurrency and s.active >= s.concurrency)
    local at = blocked and 0 or G.nextStart(q, s)
    if (n > 0 and got < n) or blocked or at > 0 then
      redis.call("ZREM", q.groupsReady, g)
      if n > 0 and got < n and s.active == 0 then
        -- Emptied and idle: nothing will release it, so it may leave the registry now.
        G.forget(q, g, stateKey)
      end
      if at > 0 and (got == n) then
        redis.call("ZADD", q.groupsLimited, at, g)
      end
      return nil
    end
    return tag + got / s.weight
  end

  local readWindow, insertByTag, tagText, writeTags = groupWindow(G)

  return function(q, f)
    releaseLimitedGroups(q)
    -- One EXISTS for both (an empty list or set does not exist).
    if redis.call("EXISTS", q.wait, q.prioritized) > 0 and not redis.call("ZSCORE", q.groupsReady, "") then
      redis.call("ZADD", q.groupsReady, q.gvt, "")
    end
    local ids, served = {}, nil
    q.gTaken = 0
    -- Which group each grouped id came from: a dropped one (hash gone) still gives its slot back.
    q.takenGroup = {}
    local size = math.min(f.count, 16) + 1
    local win, bound = readWindow(q, size)
    local retagged = {}
    -- Each visit takes a job or parks a group; the bound only guards against surprises.
    local visits = 0
    while #ids < f.count and visits < f.count + 1000 do
      visits = visits + 1
      if bound and (not win[1] or win[1].tag > bound) then
        -- Past the window: the lowest may be beyond it.
        writeTags(q, retagged)
        retagged = {}
        win, bound = readWindow(q, size)
      end
      local top = table.remove(win, 1)
      if not top then
        break
      end
      local g, tag = top.g, top.tag
      -- The runner-up: beyond the window no tag is below bound (a lower guess only takes less).
      local nextTag = win[1] and win[1].tag
      if bound and (not nextTag or nextTag > bound) then
        nextTag = bound
      end
      served = tag
      local want = f.count - #ids
      local newTag
      if g == "" then
        local n = nextTag and math.min(want, math.floor(nextTag - tag) + 1) or want
        local got = popUngrouped(q, n, ids)
        if got < n then
          redis.call("ZREM", q.groupsReady, "")
        else
          newTag = tag + got
        end
      else
        newTag = serveGroup(q, g, tag, nextTag, want, ids)
      end
      retagged[g] = newTag
      if newTag then
        insertByTag(win, {g = g, tag = newTag})
      end
    end
    writeTags(q, retagged)
    if served then
      served = tagText(served)
      if q.gTaken > 0 then
        -- gout as readMeta read it (only the pick and removals change it, never in the same call).
        q.gOut = q.gOut + q.gTaken
        redis.call("HSET", q.meta, "gvt", served, "gout", intText(q.gOut))
      else
        redis.call("HSET", q.meta, "gvt", served)
      end
      q.gvt = served
    end
    -- Known from the window: 0 when it held every member and none is left, else positive.
    q.readyGroups = #win + (bound and 1 or 0)
    return ids, q.readyGroups == 0
  end
end

local function pickReadyJobs(q, f)
  readMeta(q)
  if not q.groupsOn then
    return popReadyJobs(q, f)
  end
  q.groupPick = q.groupPick or buildGroupPick(groups(q))
  return q.groupPick(q, f)
end

-- Whether jobs are left ready after a take (the take wakes the next worker when so).
local function readyLeft(q)
  if q.groupsOn then
    if q.readyGroups then
      return q.readyGroups > 0
    end
    local G = groups(q)
    local first = redis.call("ZRANGE", q.groupsReady, 0, 0)[1]
    return first ~= nil and first ~= G.encodingMember
  end
  return redis.call("LLEN", q.wait) > 0 or redis.call("ZCARD", q.prioritized) > 0
end
