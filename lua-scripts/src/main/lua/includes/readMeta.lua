--[[
  readMeta: the queue-wide settings and flags of the meta hash, read with one HMGET the first
  time a script call needs any of them, and cached in q:
  q.maxLen, the approximate cap of the events stream (field eventsMaxLength, written by
  setQueueSettings; "10000" when absent), as the text XADD takes;
  q.paused, whether the queue is paused (field paused);
  q.metricMinute[kind] and q.metricCount[kind] for each kind with a key in q.metrics: the
  current metrics minute and its count (fields mm:<kind> and mc:<kind>; nil and 0 when absent),
  kept current by recordMetric;
  the queue's limits (limitTake), each a number or nil when not set: q.concurrency (field
  concurrency), q.rlMax, q.rlPer, q.rlBurst, q.rlTat (rl:max, rl:per, rl:burst, rl:tat) and
  q.limitedUntil (limitedUntil);
  q.groupsOn, q.gvt, q.gConcurrency, q.gRateMax/gRatePer/gRateBurst: the group flag, virtual
  time and defaults for groups (fields groups, gvt, g:concurrency, g:rl:max/per/burst; see groupState);
  q.gSettings: some group may have a setting or limit of its own, or a default applies (field
  gsettings; without it no group's hash is read for settings, see groupState); q.gOut, grouped
  ready jobs that left their group (field gout, 0 when absent; the pick adds its own);
  q.awaits, awaits registered on jobs already active (field awaits, 0 when absent; see keepResult).
  Folding them into one read keeps a worker's call at one meta command, whatever it needs.
]]
local function readMeta(q)
  if q.metaRead then
    return
  end
  q.metaRead = true
  local fields, kinds = {"eventsMaxLength", "paused", "groups", "gvt", "g:concurrency", "g:rl:max", "g:rl:per", "g:rl:burst"}, {}
  local fixed = #fields
  if q.metrics then
    for _, kind in ipairs({"completed", "failed"}) do
      if q.metrics[kind] then
        kinds[#kinds + 1] = kind
        fields[#fields + 1] = "mm:" .. kind
        fields[#fields + 1] = "mc:" .. kind
      end
    end
  end
  -- The limits ride on the same HMGET: no command of its own when none is set.
  local limitsAt = #fields
  fields[limitsAt + 1], fields[limitsAt + 2], fields[limitsAt + 3] = "concurrency", "rl:max", "rl:per"
  fields[limitsAt + 4], fields[limitsAt + 5], fields[limitsAt + 6] = "rl:burst", "rl:tat", "limitedUntil"
  fields[limitsAt + 7] = "awaits"
  fields[limitsAt + 8], fields[limitsAt + 9] = "gsettings", "gout"
  local values = redis.call("HMGET", q.meta, unpack(fields))
  q.concurrency, q.rlMax = tonumber(values[limitsAt + 1]), tonumber(values[limitsAt + 2])
  q.rlPer, q.rlBurst = tonumber(values[limitsAt + 3]), tonumber(values[limitsAt + 4])
  q.rlTat, q.limitedUntil = tonumber(values[limitsAt + 5]), tonumber(values[limitsAt + 6])
  q.awaits = tonumber(values[limitsAt + 7]) or 0
  q.gSettings, q.gOut = values[limitsAt + 8] ~= false, tonumber(values[limitsAt + 9]) or 0
  q.maxLen = values[1] or "10000"
  q.paused = values[2] ~= false
  q.groupsOn, q.gvt, q.gConcurrency = values[3] ~= false, values[4] or "0", tonumber(values[5])
  q.gRateMax, q.gRatePer, q.gRateBurst = tonumber(values[6]), tonumber(values[7]), tonumber(values[8]) or 0
  q.metricMinute, q.metricCount = {}, {}
  for i, kind in ipairs(kinds) do
    q.metricMinute[kind] = tonumber(values[fixed - 1 + 2 * i])
    q.metricCount[kind] = tonumber(values[fixed + 2 * i]) or 0
  end
end
