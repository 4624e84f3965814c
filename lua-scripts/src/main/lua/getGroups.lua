--[[
  getGroups: a page of the queue's groups in name order (the registry, ZRANGE BYLEX), each with
  its ready jobs (ZCARD of group:<g>), active jobs and own settings; or one named group.

  KEYS:
    1 groups        ZSET    <prefix>:{<queue>}:groups  (registry of groups)
  ARGV:
    1 jobKeyPrefix  <prefix>:{<queue>}:job:  (group keys are built from its base)
    2 after         the page starts after this name ("" = from the first group)
    3 limit         max groups
    4 one           "1" = only the group named by ARGV 2 (none when it is not registered)
  Returns:
    {{name, waiting, active, paused (1/0), concurrency, rl:max, rl:per, rl:burst, maxSize, weight}, ...}
    with "" for a setting the group does not have
  Events:
    none
]]
local base = string.sub(ARG.jobKeyPrefix, 1, #ARG.jobKeyPrefix - 4)
local names
if ARG.one == "1" then
  names = redis.call("ZSCORE", KEY.groups, ARG.after) and {ARG.after} or {}
else
  local from = ARG.after == "" and "-" or "(" .. ARG.after
  names = redis.call("ZRANGE", KEY.groups, from, "+", "BYLEX", "LIMIT", 0, tonumber(ARG.limit))
end
local out = {}
for _, g in ipairs(names) do
  local s = redis.call("HMGET", base .. "groupmeta:" .. g, "active", "paused", "concurrency", "rl:max", "rl:per",
    "rl:burst", "maxSize", "weight")
  out[#out + 1] = {g, redis.call("ZCARD", base .. "group:" .. g), tonumber(s[1]) or 0, s[2] and 1 or 0,
    s[3] or "", s[4] or "", s[5] or "", s[6] or "", s[7] or "", s[8] or ""}
end
return out
