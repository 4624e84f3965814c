--[[
  notifyParent: tell the parents of a job that ended (completed, or failed for good) of its end,
  each exactly once. parents is the job's par field: "<queue>:<id>:<index>" per parent, one per
  line (index: the child's place among the parent's children).
  A parent in the job's own slot (today: its own queue) gets the end at once (applyChildEnd,
  below); a parent in another slot gets an entry in this queue's flow:outbox (LIST, JSON
  {p = parent, i = index, c = child, n = name, s = state, v = value}), written atomically with the end and
  applied in the parent's slot by a relay (childEnded). Returns how many outbox entries it wrote.
  value: the return value (JSON) of a completed child, the failed reason of a failed one.
  A job without a parent never calls it: the worker knows at take whether the job has one (its
  par field), so a plain finish pays only for the definition of this one function; the helpers
  are built on first use (docs/adr/0008-lua-cost-rules.md, rule 4).
  applyChildEnd (q.flowFunctions.apply), for a parent in q's queue, the child's index and the
  child "<queue>:<id>": only a child whose index is still in the parent's pending set
  (job:<id>:deps, a SET of indexes) counts, so an end applied twice changes nothing (SREM). Its
  entry in job:<id>:res (a LIST beside job:<id>:kids: a list entry costs a few bytes, a hash
  entry ~70) holds the edge policy while pending ("F" FAIL_PARENT, "I" IGNORE, "R" REMOVE, "C"
  CONTINUE) and the child's outcome once ended: "<c|f><length of name>:<name><value>" (c =
  completed with its return value, f = failed with its reason), or "x" when a REMOVE edge's child
  failed: readers skip it, and the parent's rmk counts such children. A parent still in waiting-children then: fails for good at once when the
  child failed on a FAIL_PARENT edge ("f"; reason "child <child> failed: <reason>", and its own
  parents are told in turn, then it ends as any job failed for good: endFailed); moves on when the child failed on a CONTINUE edge ("c") or nothing is
  pending any more: to delayed when it has a delay (counted from now), else ready (pushReady:
  priority and group respected). Returns 1 when applied, 0 when the child was not pending, -1
  when the parent does not exist.
  Keys: the parent's job keys from q.jobPrefix; waiting-children and flow:outbox from q.base
  when the script did not take them as KEYS (only a job with a parent builds them). Uses q.now
  and q.nowText (Redis's TIME when the caller has no clock argument) and, to move or fail a
  parent, q.wait, q.prioritized, q.delayed, q.marker, q.meta, q.events and q.failed; to fail one,
  also q.id (endDeduplication) and q.metrics.failed (the failed metric).
  notifyParent(q) alone builds the functions and returns them (F.apply for childEnded).
  Events: failed (a parent failed by its child: failedReason, attemptsMade, prev = waiting-children), waiting or
  delayed (prev = waiting-children) for a parent that moves on.
]]
--- @include "pushReady"
--- @include "addDelayed"
--- @include "signalWorkers"
--- @include "emitEvent"
--- @include "endFailed"

local function notifyParent(q, jobId, parents, state, value)
  local F = q.flowFunctions
  if not F then
    F = {}
    q.flowFunctions = F
    q.base = q.base or string.sub(q.jobPrefix, 1, #q.jobPrefix - 4)
    q.queue = q.queue or string.match(q.base, "{([^{}]*)}:$")
    q.waitingChildren = q.waitingChildren or q.base .. "waiting-children"
    q.flowOutbox = q.flowOutbox or q.base .. "flow:outbox"
    if not q.now then
      local t = redis.call("TIME")
      q.now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
    end
    q.nowText = q.nowText or string.format("%d", q.now)

    F.moveOn = function(parentId, parentKey)
      redis.call("ZREM", q.waitingChildren, parentId)
      local f = redis.call("HMGET", parentKey, "delay", "priority", "grp")
      local delay = tonumber(f[1]) or 0
      if delay > 0 then
        addDelayed(q, parentId, q.now + delay)
        emitEvent(q, "delayed", parentId, "delay", f[1], "prev", "waiting-children")
      else
        local readyState = pushReady(q, parentId, tonumber(f[2]) or 0, false, f[3])
        if not f[3] then
          signalWorkers(q, 0)
        end
        emitEvent(q, "waiting", parentId, "prev", "waiting-children")
        return readyState
      end
    end

    -- A parent failed by its child ends like any job failed for good (endFailed): its own
    -- parents told first (while its hash is there), then event, deduplication, awaiters,
    -- removeOnFail retention and the failed metric.
    F.fail = function(parentId, parentKey, reason)
      redis.call("ZREM", q.waitingChildren, parentId)
      redis.call("HSET", parentKey, "failedReason", reason, "finishedOn", q.nowText)
      local stored = redis.call("HMGET", parentKey, "opts", "dedupId", "awaited", "awaitLate", "par", "atm")
      if stored[5] then
        F.notify(parentId, stored[5], "failed", reason)
      end
      endFailed(q, parentId, reason, stored, "failedReason", reason, "attemptsMade", stored[6] or "0",
        "prev", "waiting-children")
    end

    -- index: the child's place in the parent's kids (and res), from the child's par entry.
    F.apply = function(parentId, index, child, name, childState, childValue)
      local parentKey = q.jobPrefix .. parentId
      local pendingKey, resultsKey = parentKey .. ":deps", parentKey .. ":res"
      if redis.call("SREM", pendingKey, index) == 0 then
        if redis.call("EXISTS", parentKey) == 0 then
          return -1
        end
        return 0
      end
      if redis.call("LINDEX", parentKey .. ":kids", index) ~= child then
        -- Not this parent's child at that index (never expected): put the entry back, change nothing.
        redis.call("SADD", pendingKey, index)
        return 0
      end
      local policy = redis.call("LINDEX", resultsKey, index)
      local failed = childState ~= "completed"
      if failed and policy == "R" then
        redis.call("LSET", resultsKey, index, "x")
        redis.call("HINCRBY", parentKey, "rmk", "1")
      else
        redis.call("LSET", resultsKey, index, (failed and "f" or "c") .. #name .. ":" .. name .. childValue)
      end
      if not redis.call("ZSCORE", q.waitingChildren, parentId) then
        return 1
      end
      if failed and policy == "F" then
        F.fail(parentId, parentKey, "child " .. child .. " failed: " .. childValue)
      elseif (failed and policy == "C") or redis.call("SCARD", pendingKey) == 0 then
        F.moveOn(parentId, parentKey)
      end
      return 1
    end

    F.notify = function(childId, parentList, childState, childValue)
      local child = q.queue .. ":" .. childId
      local name = redis.call("HGET", q.jobPrefix .. childId, "name") or ""
      local relayed = 0
      for parent in string.gmatch(parentList, "[^\n]+") do
        local parentQueue, parentId, index = string.match(parent, "^([^:]+):([^:]+):(%d+)$")
        if parentQueue == q.queue then
          F.apply(parentId, index, child, name, childState, childValue)
        elseif parentQueue then
          redis.call("RPUSH", q.flowOutbox, cjson.encode({p = parentQueue .. ":" .. parentId, i = index, c = child, n = name,
            s = childState, v = childValue}))
          relayed = relayed + 1
        end
      end
      return relayed
    end
  end
  if not jobId then
    return F
  end
  return F.notify(jobId, parents, state, value)
end
