--[[
  recordMetric: count finished jobs in the queue's per-minute metrics; kind is "completed"
  or "failed", n how many (default 1: a batch of finishes counts once). Minutes are floor(q.now / 60000), so they follow the clock of the process that
  passed `now` (the finishing worker, or the one that recovered a stalled job). The current
  minute's number and count live in the meta hash (fields mm:<kind> and mc:<kind>); finished
  minutes are in the LIST q.metrics[kind], newest first, at most 1440 entries (24 hours).
  The minute and count come from readMeta (the call's one read of meta). Same minute: HINCRBY.
  First finish of a later minute: the previous minute's count and
  a 0 per skipped minute go in with one LPUSH (at most 1440 values), LTRIM keeps 1440, the new
  minute starts at n; after a gap of more than 1440 minutes the list is deleted instead (all of
  it is older than a day). A `now` earlier than the current minute (a caller whose clock lags)
  counts in the current minute. A script that passes no key for the kind counts nothing.
]]
--- @include "readMeta"
--- @include "intText"

local function recordMetric(q, kind, n)
  n = n or 1
  local list = q.metrics and q.metrics[kind]
  if not list then
    return
  end
  local countField = "mc:" .. kind
  local minute = math.floor(q.now / 60000)
  readMeta(q)
  local current = q.metricMinute[kind]
  if current and minute <= current then
    q.metricCount[kind] = redis.call("HINCRBY", q.meta, countField, intText(n))
    return
  end
  if current then
    local gap = minute - current
    if gap > 1440 then
      redis.call("DEL", list)
    else
      local counts = {q.metricCount[kind]}
      for i = 2, gap do
        counts[i] = 0
      end
      redis.call("LPUSH", list, unpack(counts))
      redis.call("LTRIM", list, 0, 1439)
    end
  end
  redis.call("HSET", q.meta, "mm:" .. kind, minute, countField, n)
  q.metricMinute[kind], q.metricCount[kind] = minute, n
end
