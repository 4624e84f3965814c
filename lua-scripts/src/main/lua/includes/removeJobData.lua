--[[
  removeJobData: delete a job's own keys (hash, lock, logs). Callers remove the id from its state
  structure themselves. Keys are built from the queue's job-key prefix, so they share its slot.
]]
local function removeJobData(jobPrefix, jobId)
  local jobKey = jobPrefix .. jobId
  redis.call("DEL", jobKey, jobKey .. ":lock", jobKey .. ":logs")
end
