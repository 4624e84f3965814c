--[[
  emitEvents: the same event of several jobs of one script call (a batch of takes, finishes or
  promotions) as one entry, one XADD instead of one per job. One job gives emitEvent's entry;
  several give: event, jobId holding all the ids in order, separated by one space (job ids never
  contain whitespace; the same field name keeps the stream's per-node field compression), the
  shared fields, then for a per-job field (perJob, e.g. "returnValue") one
  field "<perJob>:<jobId>" per job with values[i], left out when the value is JSON null (the
  common case of a processor that returns nothing; readers take a missing one as null).
  Readers split the entry back into one event per job, all with the entry's id.
]]
--- @include "emitEvent"
--- @include "readMeta"

local function emitEvents(q, event, ids, perJob, values, ...)
  if #ids == 0 then
    return nil
  end
  if #ids == 1 then
    if perJob then
      return emitEvent(q, event, ids[1], perJob, values[1], ...)
    end
    return emitEvent(q, event, ids[1], ...)
  end
  readMeta(q)
  local args = {"XADD", q.events, "MAXLEN", "~", q.maxLen, "*", "event", event, "jobId", table.concat(ids, " "), ...}
  if perJob then
    local prefix = perJob .. ":"
    for i, id in ipairs(ids) do
      if values[i] ~= "null" then
        args[#args + 1] = prefix .. id
        args[#args + 1] = values[i]
      end
    end
  end
  return redis.call(unpack(args))
end
