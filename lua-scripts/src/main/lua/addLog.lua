--[[
  addLog: append one line to a job's log, keeping at most keepLogs lines (oldest dropped).

  KEYS:
    1 job           HASH    <prefix>:{<queue>}:job:<id>
    2 logs          LIST    <prefix>:{<queue>}:job:<id>:logs
  ARGV:
    1 line          the log line
    2 keepLogs      max lines kept (-1 = all)
  Returns:
    the number of lines now kept; -1 job not found
  Events:
    none
]]
if redis.call("EXISTS", KEY.job) == 0 then
  return -1
end
local count = redis.call("RPUSH", KEY.logs, ARG.line)
local keep = tonumber(ARG.keepLogs)
if keep == 0 then
  redis.call("DEL", KEY.logs)
  count = 0
elseif keep > 0 and count > keep then
  redis.call("LTRIM", KEY.logs, -keep, -1)
  count = keep
end
return count
