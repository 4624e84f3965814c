--[[
  claimDeduplication: addJob's step for a job with a deduplication id (add.dedupId). Claims
  dedup:<id> for add.id with SET NX (PX add.ttl in ttl mode) and returns true: the caller adds
  the job as usual and stores dedupId on it. When another job owns the id, nothing is added:
    - debounce ("d" in add.flags) and the owner is still delayed: the owner takes the add's name
      and data, is due at now + add.delay (its expireAfter deadline moves with it: moveExpiry),
      and the key's expiry is reset to add.ttl when set;
    - keepLastIfActive ("k") and the owner is active (it holds a lock: field lock): the add is stored as
      dedup:<id>:next (a JSON array, replacing an earlier one; its trace headers add.tc, when
      given, as a 10th element); the owner's end adds it as a new job (releaseDeduplication);
    - otherwise the add is dropped.
  Then emits "deduplicated" (jobId = the owner, deduplicationId, deduplicatedJobId = the custom
  id the add asked for, if any) and returns false and the owner's id.
]]
--- @include "addDelayed"
--- @include "emitEvent"
--- @include "queueContext"
--- @include "addExpiry"

local function claimDeduplication(q, add)
  if not q.base then
    queueContext(q)
  end
  local key = q.base .. "dedup:" .. add.dedupId
  local claimed
  if add.ttl > 0 then
    claimed = redis.call("SET", key, add.id, "NX", "PX", add.ttl)
  else
    claimed = redis.call("SET", key, add.id, "NX")
  end
  if claimed then
    return true
  end
  local owner = redis.call("GET", key)
  if string.find(add.flags, "d", 1, true) and redis.call("ZSCORE", q.delayed, owner) then
    redis.call("HSET", q.jobPrefix .. owner, "name", add.name, "data", add.data)
    addDelayed(q, owner, q.now + add.delay)
    moveExpiry(q, owner, add.delay)
    if add.ttl > 0 then
      redis.call("PEXPIRE", key, add.ttl)
    end
  elseif string.find(add.flags, "k", 1, true) and redis.call("HEXISTS", q.jobPrefix .. owner, "lock") == 1 then
    redis.call("SET", key .. ":next", cjson.encode({add.name, add.data, add.opts, add.delay, add.priority,
      add.lifo and 1 or 0, add.group or "", add.ttl, add.dedupId, add.tc}))
  end
  if add.customId ~= "" then
    emitEvent(q, "deduplicated", owner, "deduplicationId", add.dedupId, "deduplicatedJobId", add.customId)
  else
    emitEvent(q, "deduplicated", owner, "deduplicationId", add.dedupId)
  end
  return false, owner
end
