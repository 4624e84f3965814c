--[[
  clean: remove jobs of one state older than a grace period, with their hashes, locks and logs:
  one bounded chunk per call, the caller loops. Age is finishedOn (the score) for completed and
  failed, which are read oldest first with ZRANGEBYSCORE; the job's timestamp (when it was
  added) for delayed, prioritized and waiting, whose ids are scanned from a cursor, at most
  `batch` per call (waiting from the oldest end of the list). A job is old when its age is at
  or before now - graceMs. The call that finishes the clean (nothing older is left, or the
  limit is reached) emits one "cleaned" event with the total of all calls, when it is not 0.
  Jobs that move while a clean is under way may be skipped or looked at twice. A cleaned
  delayed, prioritized or waiting job releases its deduplication key (releaseDeduplication) and
  leaves the expiry set (dropExpiry, when it has a deadline: field xp); a finished one released
  both when it ended or started (or its ttl key expires by itself).
  Job keys are built from jobKeyPrefix (same slot).

  KEYS:
    1 source        ZSET or LIST  <prefix>:{<queue>}:completed | failed | delayed | prioritized | wait
    2 events        STREAM  <prefix>:{<queue>}:events
    3 meta          HASH    <prefix>:{<queue>}:meta  (eventsMaxLength)
  ARGV:
    1 jobKeyPrefix  <prefix>:{<queue>}:job:
    2 state         the source's label: completed, failed, delayed, prioritized or waiting
    3 now           epoch millis (the caller's clock)
    4 graceMs       jobs younger than this are kept
    5 cursor        scanned states: ids already examined and kept (0 on the first call)
    6 batch         max ids examined in this call
    7 remaining     max ids removed from here on, this call and later ones (-1 = no limit)
    8 total         ids removed by the earlier calls of this clean (for the event)
  Returns:
    {removed, nextCursor}: removed in this call; nextCursor -1 when the clean is done
  Events:
    cleaned (count = total removed, state) by the call that finishes, when count > 0
]]
--- @include "removeJobData"
--- @include "emitEvent"
--- @include "releaseDeduplication"
--- @include "dropExpiry"

local q = { events = KEY.events, meta = KEY.meta, jobPrefix = ARG.jobKeyPrefix }
local source, state = KEY.source, ARG.state
local cutoff = tonumber(ARG.now) - tonumber(ARG.graceMs)
local cursor, batch, remaining = tonumber(ARG.cursor), tonumber(ARG.batch), tonumber(ARG.remaining)
local cap = batch
if remaining >= 0 and remaining < cap then
  cap = remaining
end
local tombstone = ":cleaned"  -- never a job id: ids contain no ':'

local function isOld(id)
  local fields = redis.call("HMGET", q.jobPrefix .. id, "timestamp", "dedupId", "xp")
  local timestamp = tonumber(fields[1])
  if timestamp == nil or timestamp <= cutoff then
    releaseDeduplication(q, id, fields[2])
    if fields[3] then
      dropExpiry(q, id)
    end
    return true
  end
  return false
end

local removed, done = 0, false
if cap <= 0 then
  done = true
elseif state == "completed" or state == "failed" then
  local ids = redis.call("ZRANGEBYSCORE", source, "-inf", cutoff, "LIMIT", 0, cap)
  for _, id in ipairs(ids) do
    removeJobData(q.jobPrefix, id)
  end
  if #ids > 0 then
    -- Read from -inf: the ids are exactly the lowest ranks.
    redis.call("ZREMRANGEBYRANK", source, 0, #ids - 1)
  end
  removed = #ids
  done = removed < cap or removed == remaining
elseif state == "waiting" then
  -- The oldest jobs are at the right (workers take from there): scan leftwards from the tail.
  local ids = redis.call("LRANGE", source, -(cursor + batch), -(cursor + 1))
  local examined = 0
  for i = #ids, 1, -1 do
    if removed == cap then
      break
    end
    examined = examined + 1
    if isOld(ids[i]) then
      redis.call("LSET", source, -(cursor + #ids - i + 1), tombstone)
      removeJobData(q.jobPrefix, ids[i])
      removed = removed + 1
    end
  end
  if removed > 0 then
    redis.call("LREM", source, -removed, tombstone)
  end
  cursor = cursor + examined - removed
  done = #ids < batch and examined == #ids or removed == remaining
else
  local ids = redis.call("ZRANGE", source, cursor, cursor + batch - 1)
  local old = {}
  local examined = 0
  for _, id in ipairs(ids) do
    if #old == cap then
      break
    end
    examined = examined + 1
    if isOld(id) then
      removeJobData(q.jobPrefix, id)
      old[#old + 1] = id
    end
  end
  if #old > 0 then
    redis.call("ZREM", source, unpack(old))
  end
  removed = #old
  cursor = cursor + examined - removed
  done = #ids < batch and examined == #ids or removed == remaining
end

if not done then
  return {removed, cursor}
end
local total = tonumber(ARG.total) + removed
if total > 0 then
  emitEvent(q, "cleaned", nil, "count", total, "state", state)
end
return {removed, -1}
