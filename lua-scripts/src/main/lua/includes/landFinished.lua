--[[
  landFinished: a job of a moveToFinished batch ends in completed or failed. landFinished(q, b,
  setKey, kind, jobId, keepCount, keepAgeMs, ...) counts it for the metric (b.finishedCount), and
  either deletes it (keepCount "0") or queues its add to setKey (b.setAdds, one ZADD per set for
  the batch) and its retention policy (b.policies, once per distinct set, keepCount, keepAgeMs:
  the texts of the record); then its event: consecutive completed jobs share one entry
  (b.completedIds, b.returnValues; ... is the return value), any other kind is emitted at once
  with the fields in ... after the completed entry waiting. flushCompleted(q, b) writes that entry:
  called before any other event, so the stream keeps the order of a sequence of calls.
]]
--- @include "emitEvent"
--- @include "emitEvents"
--- @include "removeJobData"

local function flushCompleted(q, b)
  if #b.completedIds > 0 then
    emitEvents(q, "completed", b.completedIds, "returnValue", b.returnValues)
    b.completedIds, b.returnValues = {}, {}
  end
end

local function landFinished(q, b, setKey, kind, jobId, keepCount, keepAgeMs, ...)
  b.finishedCount[kind] = b.finishedCount[kind] + 1
  if keepCount == "0" then
    removeJobData(q.jobPrefix, jobId)
  else
    local adds = b.setAdds[setKey]
    adds[#adds + 1] = q.nowText
    adds[#adds + 1] = jobId
    -- Keyed by the argument strings: concatenating Lua numbers would format each with printf.
    local policy = setKey .. "|" .. keepCount .. "|" .. keepAgeMs
    if not b.policySeen[policy] then
      b.policySeen[policy] = true
      b.policies[#b.policies + 1] = {setKey, tonumber(keepCount), tonumber(keepAgeMs)}
    end
  end
  if kind == "completed" then
    b.completedIds[#b.completedIds + 1] = jobId
    b.returnValues[#b.returnValues + 1] = ...
  else
    flushCompleted(q, b)
    emitEvent(q, kind, jobId, ...)
  end
end
