--[[
  readMeta: the queue-wide settings and flags of the meta hash, read with one HMGET (two when flow
  control is in use, see flow below) the first time a script call needs any of them, and cached in q:
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
  time and defaults for groups (fields groups, gvt, g:concurrency, g:rl:max/per/burst; see groups);
  q.gSettings: some group may have a setting or limit of its own, or a default applies (field
  gsettings; without it no group's hash is read for settings, see groups); q.gOut, grouped
  ready jobs that left their group (field gout, 0 when absent; the pick adds its own);
  q.awaits, awaits registered on jobs already active (field awaits, 0 when absent; see keepResult);
  q.expiryOn, some job may have an expiry deadline (field expiry; see expireJobs).
  The flow-control fields (limits and groups) are read only when meta flow is set (see below): a
  second HMGET then. A queue without limits or groups reads 9 fields in one HMGET: each field
  read costs Redis about 1,100 instructions per call (callgrind), so 14 always-absent fields cost
  a plain worker's call more than a whole command does (docs/adr/0008-lua-cost-rules.md).
  flow: "1" while any flow-control field may be set: written with `groups` (pushReady),
  `gsettings` (setGroupSettings, putBackLimited), `limitedUntil` (putBackLimited) and the limits
  (setQueueLimits); deleted when none of concurrency, rl:max, limitedUntil, groups and gsettings
  is left (setQueueLimits, limitTake). Without it every flow field reads as absent.
]]
-- The one HMGET's fields, by the metrics keys the script has (made once at a library's load, not per call).
local metaFieldsPlain = {"eventsMaxLength", "paused", "awaits", "flow", "expiry"}
local metaFieldsCompleted = {"eventsMaxLength", "paused", "awaits", "flow", "expiry", "mm:completed", "mc:completed"}
local metaFieldsFailed = {"eventsMaxLength", "paused", "awaits", "flow", "expiry", "mm:failed", "mc:failed"}
local metaFieldsBoth = {"eventsMaxLength", "paused", "awaits", "flow", "expiry", "mm:completed", "mc:completed", "mm:failed", "mc:failed"}

local function readMeta(q)
  if q.metaRead then
    return
  end
  q.metaRead = true
  local completed, failed = q.metrics and q.metrics.completed, q.metrics and q.metrics.failed
  local fields = metaFieldsPlain
  if completed and failed then
    fields = metaFieldsBoth
  elseif completed then
    fields = metaFieldsCompleted
  elseif failed then
    fields = metaFieldsFailed
  end
  local values = redis.call("HMGET", q.meta, unpack(fields))
  q.maxLen = values[1] or "10000"
  q.paused = values[2] ~= false
  q.awaits = tonumber(values[3]) or 0
  q.flow = values[4] ~= false
  q.expiryOn = values[5] ~= false
  -- Built whole (a table grown key by key is resized at each power of two).
  if completed and failed then
    q.metricMinute = {completed = tonumber(values[6]), failed = tonumber(values[8])}
    q.metricCount = {completed = tonumber(values[7]) or 0, failed = tonumber(values[9]) or 0}
  elseif completed then
    q.metricMinute, q.metricCount = {completed = tonumber(values[6])}, {completed = tonumber(values[7]) or 0}
  elseif failed then
    q.metricMinute, q.metricCount = {failed = tonumber(values[6])}, {failed = tonumber(values[7]) or 0}
  else
    q.metricMinute, q.metricCount = {}, {}
  end
  q.groupsOn, q.gvt, q.gSettings, q.gOut, q.gRateBurst = false, "0", false, 0, 0
  if not q.flow then
    return
  end
  -- Limits or groups are in use: their fields in a second read.
  local v = redis.call("HMGET", q.meta, "concurrency", "rl:max", "rl:per", "rl:burst", "rl:tat", "limitedUntil",
    "groups", "gvt", "g:concurrency", "g:rl:max", "g:rl:per", "g:rl:burst", "gsettings", "gout")
  q.concurrency, q.rlMax, q.rlPer, q.rlBurst = tonumber(v[1]), tonumber(v[2]), tonumber(v[3]), tonumber(v[4])
  q.rlTat, q.limitedUntil = tonumber(v[5]), tonumber(v[6])
  q.groupsOn, q.gvt, q.gConcurrency = v[7] ~= false, v[8] or "0", tonumber(v[9])
  q.gRateMax, q.gRatePer, q.gRateBurst = tonumber(v[10]), tonumber(v[11]), tonumber(v[12]) or 0
  q.gSettings, q.gOut = v[13] ~= false, tonumber(v[14]) or 0
end
