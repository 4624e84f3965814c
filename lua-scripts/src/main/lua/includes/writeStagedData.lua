--[[
  writeStagedData: a step job's last step ends with a result: its staged data (JSON; "" = none)
  becomes the job's data with that result, and a dataUpdated event is emitted (after the waiting
  completed entry, see landFinished).
]]
--- @include "landFinished"
--- @include "emitEvent"

local function writeStagedData(q, b, jobKey, jobId, staged)
  if staged ~= "" then
    redis.call("HSET", jobKey, "data", staged)
    flushCompleted(q, b)
    emitEvent(q, "dataUpdated", jobId)
  end
end
