--[[
  checkLock: the token check of a worker's call on a job it holds. Returns 0 when lockToken
  holds the job's lock; -1 job not found, -2 lock missing (expired or recovered), -3 lock held
  by another token.
]]
local function checkLock(jobKey, lockToken)
  local holder = redis.call("GET", jobKey .. ":lock")
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
