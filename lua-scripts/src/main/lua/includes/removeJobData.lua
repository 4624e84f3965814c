--[[
  removeJobData: delete a job's own keys (hash, whose lock field is the lock, logs, and a flow
  parent's children lists: kids, res, deps); removeJobsData: the same for many
  jobs in few DEL calls. Callers remove the ids from their state structures themselves. Keys are built from the queue's job-key prefix, so they share its slot.
]]
local function removeJobData(jobPrefix, jobId)
  local jobKey = jobPrefix .. jobId
  redis.call("DEL", jobKey, jobKey .. ":logs", jobKey .. ":kids", jobKey .. ":res", jobKey .. ":deps")
end

-- Many jobs' keys with one DEL per 300 jobs (Lua's unpack has a stack limit).
local function removeJobsData(jobPrefix, ids)
  local keys = {}
  for i, id in ipairs(ids) do
    local jobKey = jobPrefix .. id
    keys[#keys + 1] = jobKey
    keys[#keys + 1] = jobKey .. ":logs"
    keys[#keys + 1] = jobKey .. ":kids"
    keys[#keys + 1] = jobKey .. ":res"
    keys[#keys + 1] = jobKey .. ":deps"
    if i % 150 == 0 or i == #ids then
      redis.call("DEL", unpack(keys))
      keys = {}
    end
  end
end
