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
  child "<queue>:<id>": only a child whose bit is still set in the parent's pending bitmap
  (job:<id>:deps, one bit per child by index, see addChildEdges) counts, and its end clears the
  bit, so an end applied twice changes nothing; the parent's field pending (how many bits are
  set) goes down by one with it, so readiness is O(1) per end (at 0 the bitmap and the field
  go). Its entry in job:<id>:res (a LIST beside job:<id>:kids: a list entry costs a few bytes, a hash
  entry ~70) holds the edge policy while pending ("F" FAIL_PARENT, "I" IGNORE, "R" REMOVE, "C"
  CONTINUE) and the child's outcome once ended: "<c|f><length of name>:<name><value>" (c =
  completed with its return value, f = failed with its reason), or "x" when a REMOVE edge's child
  failed: readers skip it, and the parent's rmk counts such children. A parent still in waiting-children then: fails for good at once when the
  child failed on a FAIL_PARENT edge ("f"; reason "child <child> failed: <reason>", and its own
  parents are told in turn, then it ends as any job failed for good: F.endFailed); moves on when
  the child failed on a CONTINUE edge ("c") or nothing is pending any more: to delayed when it has a delay (counted from now), else ready (pushReady:
  priority and group respected). Returns 1 when applied, 0 when the child was not pending, -1
  when the parent does not exist.
  Keys: the parent's job keys from q.jobPrefix; waiting-children and flow:outbox from q.base
  when the script did not take them as KEYS (only a job with a parent builds them). Uses q.now
  and q.nowText (Redis's TIME when the caller has no clock argument) and, to move or fail a
  parent, q.wait, q.prioritized, q.delayed, q.marker, q.meta, q.events and q.failed; to fail one,
  also q.id (endDeduplication) and q.metrics.failed (the failed metric).
  notifyParent(q) alone builds the functions and returns them (F.apply for childEnded;
  F.endFailed for failCancelled).
  Events: failed (a parent failed by its child: failedReason, attemptsMade, prev =
  waiting-children), waiting or delayed (prev = waiting-children) for a parent that moves on.
]]
--- @include "pushReady"
--- @include "addDelayed"
--- @include "signalWorkers"
--- @include "emitEvent"
--- @include "applyRetention"
--- @include "removeJobData"
--- @include "recordMetric"
--- @include "endDeduplication"
--- @include "keepResult"

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

    -- The rest of the end of a job failed for good outside a worker's finish (a parent failed by
    -- its child; failCancelled's cancelled or stalled-out job), once its failedReason and
    -- finishedOn are written, it is out of its state and its parents are told. stored: its HMGET
    -- of opts, dedupId, awaited, awaitLate. As a finish does for a job failed for good: the failed
    -- event (...: its fields after the job id), its deduplication id released (endDeduplication),
    -- its result kept for awaiters (keepResult; a late await resolved: awaitLate removed, meta
    -- awaits - 1), into failed with its own removeOnFail retention read from its opts (count 0:
    -- deleted), and the failed metric (when q.metrics.failed is set). Here, in the table built on
    -- first use, rather than an include of its own: a plain finish defines no closure more.
    F.endFailed = function(jobId, failedReason, stored, ...)
      local keepCount, keepAgeMs = -1, -1
      local opts = stored[1]
      if opts and opts ~= "" then
        local keep = cjson.decode(opts)["removeOnFail"]
        if type(keep) == "table" then
          keepCount = tonumber(keep["count"]) or -1
          keepAgeMs = tonumber(keep["age"]) or -1
        end
      end
      emitEvent(q, "failed", jobId, ...)
      endDeduplication(q, jobId, stored[2])
      if stored[3] then
        -- Someone awaits it (awaitJob/addAndAwait): the result outlives the job for them.
        keepResult(q, jobId, stored[3], "failed", failedReason)
      end
      if stored[4] then
        -- An await registered while it ran: its end, this, resolves it (meta awaits - 1).
        redis.call("HDEL", q.jobPrefix .. jobId, "awaitLate")
        redis.call("HINCRBY", q.meta, "awaits", -1)
      end
      if keepCount == 0 then
        removeJobData(q.jobPrefix, jobId)
      else
        redis.call("ZADD", q.failed, q.nowText, jobId)
        if keepCount > 0 or keepAgeMs >= 0 then
          applyRetention(q.failed, q.jobPrefix, q.now, keepCount, keepAgeMs, 1000)
        end
      end
      recordMetric(q, "failed")
    end

    -- A parent failed by its child ends like any job failed for good (F.endFailed): its own
    -- parents told first (while its hash is there), then event, deduplication, awaiters,
    -- removeOnFail retention and the failed metric.
    F.fail = function(parentId, parentKey, reason)
      redis.call("ZREM", q.waitingChildren, parentId)
      redis.call("HSET", parentKey, "failedReason", reason, "finishedOn", q.nowText)
      local stored = redis.call("HMGET", parentKey, "opts", "dedupId", "awaited", "awaitLate", "par", "atm")
      if stored[5] then
        F.notify(parentId, stored[5], "failed", reason)
      end
      F.endFailed(parentId, reason, stored, "failedReason", reason, "attemptsMade", stored[6] or "0",
        "prev", "waiting-children")
    end

    -- index: the child's place in the parent's kids (and res), from the child's par entry.
    F.apply = function(parentId, index, child, name, childState, childValue)
      local parentKey = q.jobPrefix .. parentId
      local pendingKey, resultsKey = parentKey .. ":deps", parentKey .. ":res"
      if redis.call("GETBIT", pendingKey, index) == 0 then
        if redis.call("EXISTS", parentKey) == 0 then
          return -1
        end
        return 0
      end
      if redis.call("LINDEX", parentKey .. ":kids", index) ~= child then
        -- Not this parent's child at that index (never expected): change nothing.
        return 0
      end
      redis.call("SETBIT", pendingKey, index, 0)
      local left = redis.call("HINCRBY", parentKey, "pending", -1)
      if left <= 0 then
        redis.call("DEL", pendingKey)
        redis.call("HDEL", parentKey, "pending")
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
      elseif (failed and policy == "C") or left <= 0 then
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
