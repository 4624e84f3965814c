--[[
  getJobs: a page of jobs of one state with their hashes, read atomically. The wait list is read
  in stored order (newest first); sorted sets ascending (delayed: next due first; prioritized:
  next to run first) or descending (completed, failed: newest first; active, from leases: the
  latest lock expiry, i.e. most recently taken or extended, first).
  Read-only. Job keys are built from jobKeyPrefix (same slot).

  KEYS:
    1 state         LIST or ZSET  <prefix>:{<queue>}:<state>
  ARGV:
    1 jobKeyPrefix  <prefix>:{<queue>}:job:
    2 order         "list", "asc" or "desc"
    3 start         first index (0-based, inclusive)
    4 end           last index (inclusive; -1 = to the end)
  Returns:
    {{jobId, {hash field, value, ...}}, ...}
  Events:
    none
]]
local order, first, last = ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local ids
if order == "list" then
  ids = redis.call("LRANGE", KEY.state, first, last)
elseif order == "desc" then
  ids = redis.call("ZREVRANGE", KEY.state, first, last)
else
  ids = redis.call("ZRANGE", KEY.state, first, last)
end
local jobs = {}
for _, id in ipairs(ids) do
  jobs[#jobs + 1] = {id, redis.call("HGETALL", ARGV[1] .. id)}
end
return jobs
