--[[
  groups: the group side of the ready structures, shared by pushReady, the take's pick
  (pickReadyJobs), the slot release (releaseGroupSlot) and the admin scripts. groups(q) returns
  the group functions as a table G, built by a call's first use of groups and kept in
  q.groupFunctions for the rest of the call: a script call pays for every top-level function it
  defines and every local they capture (about 500-1,000 instructions each, callgrind), so queues
  without groups do not pay for these. It also sets
  q.groups, q.groupsReady and q.groupsLimited, when the script did not take them as KEYS, from
  the base like the per-group keys (same slot): three key arguments cost every call of the hot
  scripts about 6,000 instructions (docs/adr/0008-lua-cost-rules.md).
  groups(q, g), with a group: its keys, built from the base like job keys (same slot): the
  group's ready jobs ZSET (group:<g>) and its settings/state HASH (groupmeta:<g>); without
  building the group functions (adding a job to a group that has ready jobs needs no more; the
  functions cost ~5,000 instructions per call, a function of its own would cost every add ~1,000).
  G.state(q, stateKey): one HMGET of the group's hash, with the queue's defaults for groups
  (readMeta) where the group has no setting of its own: {concurrency (nil = none), weight,
  paused, active, rateMax/ratePer/rateBurst (nil = no limit), tat, limitedUntil}. No read while
  meta gsettings is unset (no group setting, default or group limit was ever written): then
  every group runs unlimited with weight 1, and active reads 0 (unknown, needed by nothing).
  G.nextStart(q, s): 0 when the group may start a job now, else the time (ms) its rate limit
  or manual limit (limitedUntil) allows the next one.
  G.ready(q, g, s, hasJobs): puts g where the take finds it: in groups:ready with tag gvt
  (ZADD NX: no credit for idle time; the marker is signalled when it enters), or, when its limit
  holds it back, in groups:limited at its release time. Not when it is paused, at its concurrency
  or empty. s: the group as G.state read it (nil = read it); hasJobs: the caller knows group:<g>
  is not empty.
  G.forget(q, g, stateKey): a group with no ready or active job and no setting of its own
  leaves the registry (transient groups do not pile up).
  G.clock(q): Redis's clock in ms (as redisNowMs): limits use it, not the caller's.
  G.encodingMember: a member groups:ready always holds beside the groups (G.ready adds it with
  the first group, at score 2^53, past any tag, so it sorts last; readers skip it; not +inf, which
  Java clients do not parse). Its 80 bytes exceed zset-max-listpack-value (64 by default), so
  Redis keeps groups:ready as a skiplist: the take
  re-tags the groups it served and a served group moves to the back, which in a listpack (up to
  128 members) rewrites and rescans the whole set: 30,000 instructions per served group with 100
  groups, 5,000 as a skiplist (callgrind; flow-control.md section 15). It starts with a control
  character, which no group name may contain.
]]
--- @include "readMeta"
--- @include "signalWorkers"
--- @include "queueContext"

local function groups(q, g)
  if not q.base then
    queueContext(q)
  end
  if g then
    return q.base .. "group:" .. g, q.base .. "groupmeta:" .. g
  end
  if not q.groupsReady then
    q.groups, q.groupsReady, q.groupsLimited = q.base .. "groups", q.base .. "groups:ready", q.base .. "groups:limited"
  end
  if q.groupFunctions then
    return q.groupFunctions
  end
  -- Presized: the functions inserted one by one would grow (rehash) the table several times.
  local G = {
    clock = false, state = false, nextStart = false, ready = false, forget = false,
    encodingMember = "\1skiplist encoding of groups:ready (longer than zset-max-listpack-value)........"
  }

  -- Redis's clock in ms, cached in q.redisNow: the same six lines as redisNowMs on purpose.
  -- Including redisNowMs here would make addJob define its closure on every call, ungrouped
  -- adds too (about 900 instructions, 0.8% of a plain add; docs/adr/0008-lua-cost-rules.md).
  function G.clock(q)
    if not q.redisNow then
      local t = redis.call("TIME")
      q.redisNow = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
    end
    return q.redisNow
  end

  function G.state(q, stateKey)
    readMeta(q)
    if not q.gSettings then
      -- No group has a setting or limit of its own and no default applies (meta gsettings unset):
      -- no read. active is not known then (nothing needs it: no concurrency; G.forget reads it).
      -- One table per call, not per visit (callers change only active, and only until the next).
      local s = q.groupDefaults
      if s then
        s.active = 0
        return s
      end
      s = {weight = 1, paused = false, active = 0, tat = 0, limitedUntil = 0}
      q.groupDefaults = s
      return s
    end
    local v = redis.call("HMGET", stateKey, "concurrency", "weight", "paused", "active", "rl:max", "rl:per", "rl:burst",
      "rl:tat", "limitedUntil")
    local s = {
      concurrency = tonumber(v[1]) or q.gConcurrency, weight = tonumber(v[2]) or 1, paused = v[3] ~= false,
      active = tonumber(v[4]) or 0, tat = tonumber(v[8]) or 0, limitedUntil = tonumber(v[9]) or 0
    }
    if v[5] then
      s.rateMax, s.ratePer, s.rateBurst = tonumber(v[5]), tonumber(v[6]), tonumber(v[7]) or 0
    elseif q.gRateMax then
      s.rateMax, s.ratePer, s.rateBurst = q.gRateMax, q.gRatePer, q.gRateBurst
    end
    return s
  end

  function G.nextStart(q, s)
    local at = s.limitedUntil
    if s.rateMax then
      local start = s.tat - s.rateBurst * s.ratePer / s.rateMax
      if start > at then
        at = start
      end
    end
    if at > 0 and at > G.clock(q) then
      return math.ceil(at)
    end
    return 0
  end

  function G.ready(q, g, s, hasJobs)
    local jobsKey, stateKey = groups(q, g)
    s = s or G.state(q, stateKey)
    if s.paused or (s.concurrency and s.active >= s.concurrency) then
      return false
    end
    if not hasJobs and redis.call("EXISTS", jobsKey) == 0 then
      return false
    end
    local at = G.nextStart(q, s)
    if at > 0 then
      redis.call("ZADD", q.groupsLimited, at, g)
      return false
    end
    -- With the encoding member (no command of its own): 1 or 2 added when g entered (2 with a new
    -- key); 1 also when g was there but the member not (a set from before it), a harmless signal.
    if redis.call("ZADD", q.groupsReady, "NX", q.gvt, g, "9007199254740992", G.encodingMember) > 0 then
      signalWorkers(q, 0)
    end
    return true
  end

  function G.forget(q, g, stateKey)
    -- Limit state in the past holds nothing back: it does not keep a group registered.
    local v = redis.call("HMGET", stateKey, "active", "rl:tat", "limitedUntil")
    if (tonumber(v[1]) or 0) > 0 then
      return
    end
    local now = G.clock(q)
    if (tonumber(v[2]) or 0) <= now and (tonumber(v[3]) or 0) <= now then
      redis.call("HDEL", stateKey, "active", "rl:tat", "limitedUntil")
    end
    if redis.call("EXISTS", stateKey) == 0 then
      redis.call("ZREM", q.groups, g)
      redis.call("ZREM", q.groupsReady, g)
      redis.call("ZREM", q.groupsLimited, g)
    end
  end

  q.groupFunctions = G
  return G
end
