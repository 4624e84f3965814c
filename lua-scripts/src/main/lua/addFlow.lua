--[[
  addFlow: add the jobs of a flow that belong to one queue, atomically, with their edges. A job
  with children (every child "<queue>:<id>" in job:<id>:kids, a LIST in the order given; at the
  same index in job:<id>:res, a LIST, the edge policy "F" FAIL_PARENT, "I" IGNORE, "R" REMOVE or
  "C" CONTINUE, replaced by the child's outcome when it ends; the pending ones as bits by index in
  job:<id>:deps, a bitmap, and their number in field pending: addChildEdges)
  goes to waiting-children (score: now); a job without goes where addJob puts it (wait,
  prioritized, its group, or delayed). A job with parents records them in field par
  ("<queue>:<id>:<index>" per line, index: its place among that parent's children): the worker
  reads it at take and the finish tells them (notifyParent).
  Callers list parents before their children, so a parent exists before any child can end.
  A parent with more children than one call should carry (childCount above the children given)
  gets the rest from addFlowChildren calls of the same flow (field flow = the flow id until the
  last of them): its pending count is the total from the start, so it cannot move on before
  every child is recorded.
  A job whose id exists already is kept as it is (re-adding a flow with the same ids adds nothing
  twice; an existing parent keeps its own children): only new parents are appended to its par,
  and when it has ended already its outcome applies to them at once (notifyParent). A new job
  stores the flow add's trace headers as field tc when it has some, as addJob does. The call is
  idempotent: a relay may repeat it.

  KEYS:
    1 wait          LIST    <prefix>:{<queue>}:wait
    2 prioritized   ZSET    <prefix>:{<queue>}:prioritized
    3 delayed       ZSET    <prefix>:{<queue>}:delayed
    4 marker        ZSET    <prefix>:{<queue>}:marker
    5 meta          HASH    <prefix>:{<queue>}:meta
    6 events        STREAM  <prefix>:{<queue>}:events
    7 completed     ZSET    <prefix>:{<queue>}:completed
    8 failed        ZSET    <prefix>:{<queue>}:failed
    9 waitingChildren ZSET  <prefix>:{<queue>}:waiting-children
    10 flowOutbox   LIST    <prefix>:{<queue>}:flow:outbox
    11 metricsFailed LIST   <prefix>:{<queue>}:metrics:failed  (a parent failed at once by an existing failed child)
    12 id           STRING  <prefix>:{<queue>}:id  (endDeduplication of such a parent)
  ARGV:
    1 jobKeyPrefix  <prefix>:{<queue>}:job:
    2 now           epoch millis
    3 job...        groups of 13 per job: id, name, data (JSON), opts (JSON, "" = defaults),
                    delayMs, priority, lifo ("1"/"0"), group ("" = none), parents
                    ("<queue>:<id>:<index>" per line, "" = none), children ("<policy><queue>:<id>"
                    per line, policy one of F I R C, "" = none), childCount (all its children,
                    "" = those given here), flowId (the flow adding the rest: "" = none), tc (the
                    flow add's trace headers, see TraceHeaders, stored as tc; "" = none, nothing stored)
  Returns:
    {{jobId, 1 added | 0 existed}, ...} one per job, in order
  Events:
    added (state = waiting-children | waiting | prioritized | delayed, name), duplicated
]]
--- @include "pushReady"
--- @include "addDelayed"
--- @include "signalWorkers"
--- @include "emitEvent"
--- @include "addExpiry"
--- @include "notifyParent"
--- @include "addChildEdges"

local q = {
  wait = KEY.wait, prioritized = KEY.prioritized, delayed = KEY.delayed, marker = KEY.marker, meta = KEY.meta,
  events = KEY.events, completed = KEY.completed, failed = KEY.failed, waitingChildren = KEY.waitingChildren,
  flowOutbox = KEY.flowOutbox, metrics = { failed = KEY.metricsFailed }, id = KEY.id, jobPrefix = ARG.jobKeyPrefix, now = tonumber(ARG.now), nowText = ARG.now
}
local results = {}
for i = ARG_FROM.job, #ARGV, 13 do
  local jobId, name = ARGV[i], ARGV[i + 1]
  local jobKey = q.jobPrefix .. jobId
  local parents, children = ARGV[i + 8], ARGV[i + 9]
  if redis.call("EXISTS", jobKey) == 1 then
    if parents ~= "" then
      local known = redis.call("HGET", jobKey, "par") or ""
      local seen = {}
      for p in string.gmatch(known, "[^\n]+") do
        seen[p] = true
      end
      local added = {}
      for p in string.gmatch(parents, "[^\n]+") do
        if not seen[p] then
          seen[p] = true
          added[#added + 1] = p
        end
      end
      if #added > 0 then
        local list = table.concat(added, "\n")
        redis.call("HSET", jobKey, "par", known == "" and list or known .. "\n" .. list)
        if redis.call("ZSCORE", q.completed, jobId) then
          notifyParent(q, jobId, list, "completed", redis.call("HGET", jobKey, "returnValue") or "null")
        elseif redis.call("ZSCORE", q.failed, jobId) then
          notifyParent(q, jobId, list, "failed", redis.call("HGET", jobKey, "failedReason") or "failed")
        end
      end
    end
    emitEvent(q, "duplicated", jobId, "name", name)
    results[#results + 1] = {jobId, 0}
  else
    local opts, delay, priority = ARGV[i + 3], tonumber(ARGV[i + 4]), tonumber(ARGV[i + 5])
    local group = ARGV[i + 7] ~= "" and ARGV[i + 7]
    local fields = {"name", name, "data", ARGV[i + 2], "timestamp", ARG.now}
    if opts ~= "" then
      fields[#fields + 1] = "opts"
      fields[#fields + 1] = opts
    end
    if delay > 0 then
      fields[#fields + 1] = "delay"
      fields[#fields + 1] = ARGV[i + 4]
    end
    if priority > 0 then
      fields[#fields + 1] = "priority"
      fields[#fields + 1] = ARGV[i + 5]
    end
    if group then
      fields[#fields + 1] = "grp"
      fields[#fields + 1] = group
    end
    if parents ~= "" then
      fields[#fields + 1] = "par"
      fields[#fields + 1] = parents
    end
    if ARGV[i + 12] ~= "" then
      fields[#fields + 1] = "tc"
      fields[#fields + 1] = ARGV[i + 12]
    end
    redis.call("HSET", jobKey, unpack(fields))
    if children ~= "" then
      local given = addChildEdges(jobKey, 0, children)
      local total = tonumber(ARGV[i + 10]) or given
      if total > given then
        redis.call("HSET", jobKey, "pending", total, "flow", ARGV[i + 11])
      else
        redis.call("HSET", jobKey, "pending", total)
      end
      redis.call("ZADD", q.waitingChildren, ARG.now, jobId)
      emitEvent(q, "added", jobId, "name", name, "state", "waiting-children")
    elseif delay > 0 then
      addExpiry(q, jobId, opts, delay)
      addDelayed(q, jobId, q.now + delay)
      emitEvent(q, "added", jobId, "name", name, "state", "delayed", "delay", ARGV[i + 4])
    else
      addExpiry(q, jobId, opts, 0)
      local state = pushReady(q, jobId, priority, ARGV[i + 6] == "1", group)
      if not group then
        signalWorkers(q, 0)
      end
      emitEvent(q, "added", jobId, "name", name, "state", state)
    end
    results[#results + 1] = {jobId, 1}
  end
end
return results
