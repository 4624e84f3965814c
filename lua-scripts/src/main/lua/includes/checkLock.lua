--[[
  checkLock: the token check of a worker's call on a job it holds. Returns 0 when lockToken
  holds the job's lock (field lock of the job hash); -1 job not found, -2 lock missing (the job
  left active: finished, recovered, given back; or its renewal found the lease expired), -3 lock
  held by another token. A lease that expired but was not recovered yet still accepts its holder:
  nobody else can hold the job, since recovery clears the field in the same script.
]]
local function checkLock(jobKey, lockToken)
  local holder = redis.call("HGET", jobKey, "lock")
  if not holder then
    if redis.call("EXISTS", jobKey) == 0 then
      return -1
    end
    return -2
  end
  if holder ~= lockToken then
    return -3
  end
  return 0
end
