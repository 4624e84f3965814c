--[[
  addDeduplicationNext: the owner of dedup key `key` ended while an add was stored as its next
  (keepLastIfActive, see claimDeduplication): add that job now, with a new automatic id (q.id),
  owning the deduplication id (the key names it, with the stored ttl when there was one) and
  carrying the kept add's trace headers (tc) when it had some. Emits
  "added" like addJob.
]]
--- @include "addDelayed"
--- @include "pushReady"
--- @include "signalWorkers"
--- @include "emitEvent"
--- @include "addExpiry"

local function addDeduplicationNext(q, key)
  local nextKey = key .. ":next"
  local add = cjson.decode(redis.call("GET", nextKey))
  redis.call("DEL", nextKey)
  local name, delay, priority, group, ttl = add[1], tonumber(add[4]), tonumber(add[5]), add[7], tonumber(add[8])
  local jobId = string.format("%d", redis.call("INCR", q.id))
  local fields = {"name", name, "data", add[2], "timestamp", string.format("%d", q.now), "dedupId", add[9]}
  if add[3] ~= "" then
    fields[#fields + 1] = "opts"
    fields[#fields + 1] = add[3]
  end
  if delay > 0 then
    fields[#fields + 1] = "delay"
    fields[#fields + 1] = string.format("%d", delay)
  end
  if priority > 0 then
    fields[#fields + 1] = "priority"
    fields[#fields + 1] = string.format("%d", priority)
  end
  if group ~= "" then
    fields[#fields + 1] = "grp"
    fields[#fields + 1] = group
  else
    group = nil
  end
  if add[10] then
    fields[#fields + 1] = "tc"
    fields[#fields + 1] = add[10]
  end
  addExpiry(q, jobId, add[3] or "", delay > 0 and delay or 0, fields)
  redis.call("HSET", q.jobPrefix .. jobId, unpack(fields))
  if ttl > 0 then
    redis.call("SET", key, jobId, "PX", ttl)
  else
    redis.call("SET", key, jobId)
  end
  if delay > 0 then
    addDelayed(q, jobId, q.now + delay)
    emitEvent(q, "added", jobId, "name", name, "state", "delayed", "delay", string.format("%d", delay))
  else
    local state = pushReady(q, jobId, priority, add[6] == 1, group)
    if not group then
      signalWorkers(q, 0)
    end
    emitEvent(q, "added", jobId, "name", name, "state", state)
  end
  return jobId
end
