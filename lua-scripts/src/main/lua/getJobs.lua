--[[
  getJobs: a page of jobs of one state with their hashes, read atomically. The wait list is read
  in stored order (newest first); sorted sets ascending (delayed: next due first; prioritized:
  next to run first) or descending (completed, failed: newest first; active, from leases: the
  latest lock expiry, i.e. most recently taken or extended, first).
  Read-only. Job keys are built from jobKeyPrefix (same slot).

  KEYS:
    1 state         LIST or ZSET  <prefix>:{<queue>}:<state>
    2 groups        ZSET    <prefix>:{<queue>}:groups  (registry of groups: the wait list goes on with their jobs)
  ARGV:
    1 jobKeyPrefix  <prefix>:{<queue>}:job:
    2 order         "list" (the wait list, then the grouped ready jobs group by group, in
                    group name order), "asc" or "desc"
    3 start         first index (0-based, inclusive)
    4 end           last index (inclusive; -1 = to the end)
  Returns:
    {{jobId, {hash field, value, ...}}, ...}
  Events:
    none
]]
local order, first, last = ARG.order, tonumber(ARG.start), tonumber(ARG["end"])
local ids
if order == "list" then
  ids = redis.call("LRANGE", KEY.state, first, last)
  -- Indexes past the wait list go on into the groups' ZSETs (built from the job prefix's base).
  local waitLength = redis.call("LLEN", KEY.state)
  local from, to = math.max(first - waitLength, 0), last < 0 and -1 or last - waitLength
  if last < 0 or to >= 0 then
    local base, offset = string.sub(ARG.jobKeyPrefix, 1, #ARG.jobKeyPrefix - 4), 0
    for _, g in ipairs(redis.call("ZRANGE", KEY.groups, 0, -1)) do
      local jobsKey = base .. "group:" .. g
      local n = redis.call("ZCARD", jobsKey)
      local lo, hi = math.max(from - offset, 0), to < 0 and n - 1 or math.min(to - offset, n - 1)
      if lo <= hi then
        for _, id in ipairs(redis.call("ZRANGE", jobsKey, lo, hi)) do
          ids[#ids + 1] = id
        end
      end
      offset = offset + n
      if to >= 0 and offset > to then
        break
      end
    end
  end
elseif order == "desc" then
  ids = redis.call("ZREVRANGE", KEY.state, first, last)
else
  ids = redis.call("ZRANGE", KEY.state, first, last)
end
local jobs = {}
for _, id in ipairs(ids) do
  jobs[#jobs + 1] = {id, redis.call("HGETALL", ARG.jobKeyPrefix .. id)}
end
return jobs
