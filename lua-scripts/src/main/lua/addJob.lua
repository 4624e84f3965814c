--[[
  addJob: add one or more jobs atomically, each to wait, prioritized, its group (group:<g>, see
  pushReady) or delayed (a delayed grouped job goes to its group when promoted).
  A job whose custom id already exists is not added: its id is returned with flag 0 and a
  "duplicated" event is emitted. A job with a deduplication id claims dedup:<id> (see
  claimDeduplication); when another job owns it, nothing is added: the owner's id is returned
  with flag 2 and a "deduplicated" event is emitted. Fields with default values are not stored (lean hashes).
  A job whose opts carry expireAfter or expireAt gets its deadline (addExpiry: field xp, the
  queue's expiry ZSET, meta expiry; see expireJobs).
  Workers are woken (marker) once per call, and only when a job makes wait non-empty, goes to
  prioritized, or becomes the earliest delayed job; never while the queue is paused.
  The events stream is trimmed to the queue's cap (eventsMaxLength in meta) from the first job of
  the call that needs meta anyway (to wake workers), has a custom id, or has an automatic id
  that is a multiple of 64; the events before it go in untrimmed. So a single add to a busy
  queue reads meta only every 64th time, and the stream exceeds its cap by at most 63 entries
  (besides XADD ~'s own slack).
  The group sets (groups, groups:ready, groups:limited) are not KEYS: groups(q) builds them from
  jobKeyPrefix (same slot) when a group is involved, so a call for a queue without groups passes
  no argument for them (each key argument costs Redis ~2,000 instructions per call; the cost rules hot
  scripts follow are in docs/adr/0008-lua-cost-rules.md).

  KEYS:
    1 wait          LIST    <prefix>:{<queue>}:wait
    2 marker        ZSET    <prefix>:{<queue>}:marker
    3 meta          HASH    <prefix>:{<queue>}:meta  (eventsMaxLength, paused; see readMeta)
    4 events        STREAM  <prefix>:{<queue>}:events
    5 id            STRING  <prefix>:{<queue>}:id  (automatic id counter)
    (prioritized and delayed, same slot, are built from jobKeyPrefix by addSidePaths for the jobs
    that go there: two KEYS fewer for every plain add)
  ARGV:
    1 jobKeyPrefix  <prefix>:{<queue>}:job:  job keys are built from it (same slot)
    2 now           epoch millis (the job's timestamp)
    3 job...        then groups of 12 per job: customId ("" = automatic id), name, data (JSON),
                    opts (JSON of non-default options, "" = defaults), delayMs, priority,
                    lifo ("1" or "0"), group ("" = none; stored as grp), dedupId ("" = none;
                    stored as dedupId), dedupTtlMs (0 = the key lives until the owner ends),
                    dedupFlags ("d" debounce, "k" keepLastIfActive, "" = neither), awaitMs (""
                    = nobody awaits the job; for addAndAwait, stored as awaited = <ms>, how long
                    its finish keeps the result)
    last            only when the call carries trace headers (tracing): one more argument after
                    the groups, the headers (see TraceHeaders), stored as tc on every job the call adds, and
                    with an add kept by keepLastIfActive (a call without it has exactly 2 + 12 per
                    job arguments)
  Returns:
    {jobId, flag, jobId, flag, ...} two entries per job in order (flat: Redis converts each nested
    table of a reply for ~2,500 instructions); flag 1 = added, 0 = duplicate custom id,
    2 = deduplicated (jobId is the owner of the deduplication id);
    {-8, group, maxSize} when the call would put more ready jobs in a group than its maxSize
    (checked for the whole call before anything is written)
  Events:
    added (state = waiting | prioritized | delayed, name, delay), duplicated, deduplicated
    (deduplicationId, deduplicatedJobId)
]]
--- @include "insertJob"
--- @include "emitEvent"
--- @include "readMeta"
--- @include "addSidePaths"

local q = {
  wait = KEY.wait, marker = KEY.marker, meta = KEY.meta,
  events = KEY.events, jobPrefix = ARG.jobKeyPrefix, now = tonumber(ARG.now), nowText = ARG.now,
  trimLazily = true
}
local idKey = KEY.id
local results = {}
-- Trace headers ride as one extra last argument, so a call without them is unchanged.
local lastJobArg, traceContext = #ARGV, nil
if (#ARGV - ARG_FROM.job + 1) % 12 == 1 then
  lastJobArg, traceContext = #ARGV - 1, ARGV[#ARGV]
end

-- Max sizes first: a call that would overfill a group writes nothing. (No table unless a job
-- has a group: an add of ungrouped jobs pays nothing for groups.)
local adding
for i = ARG_FROM.job, lastJobArg, 12 do
  local group = ARGV[i + 7]
  if group ~= "" and (ARGV[i + 4] == "0" or tonumber(ARGV[i + 4]) <= 0) and (ARGV[i] == "" or redis.call("EXISTS", q.jobPrefix .. ARGV[i]) == 0) then
    adding = adding or {}
    adding[group] = (adding[group] or 0) + 1
  end
end
if adding then
  for group, count in pairs(adding) do
    local jobsKey, stateKey = addSidePaths(q).groups(q, group)
    local maxSize = tonumber(redis.call("HGET", stateKey, "maxSize"))
    if maxSize and redis.call("ZCARD", jobsKey) + count > maxSize then
      return {-8, group, maxSize}
    end
  end
end

for i = ARG_FROM.job, lastJobArg, 12 do
  local jobId = ARGV[i]
  local name, data, opts = ARGV[i + 1], ARGV[i + 2], ARGV[i + 3]
  -- No tonumber for the usual "0" (each costs ~600 instructions).
  local delay = ARGV[i + 4] == "0" and 0 or tonumber(ARGV[i + 4])
  local priority, lifo = ARGV[i + 5] == "0" and 0 or tonumber(ARGV[i + 5]), ARGV[i + 6] == "1"
  local awaited = ARGV[i + 11] ~= "" and ARGV[i + 11]
  local duplicate = false
  if jobId == "" then
    local number = redis.call("INCR", idKey)
    -- %d, not tostring: Lua formats numbers with printf("%.14g"), slow enough to show in profiles.
    jobId = string.format("%d", number)
    if number % 64 == 0 then
      readMeta(q)
    end
  else
    readMeta(q)
    duplicate = redis.call("EXISTS", q.jobPrefix .. jobId) == 1
  end
  local dedupId, claimed, owner = ARGV[i + 8], true, nil
  if not duplicate and dedupId ~= "" then
    claimed, owner = addSidePaths(q).claimDeduplication(q, {id = jobId, customId = ARGV[i], name = name, data = data, opts = opts,
      delay = delay, priority = priority, lifo = lifo, group = ARGV[i + 7] ~= "" and ARGV[i + 7] or nil,
      dedupId = dedupId, ttl = tonumber(ARGV[i + 9]), flags = ARGV[i + 10], tc = traceContext})
  end
  if duplicate then
    emitEvent(q, "duplicated", jobId, "name", name)
    results[#results + 1] = jobId
    results[#results + 1] = 0
  elseif not claimed then
    results[#results + 1] = owner
    results[#results + 1] = 2
  else
    insertJob(q, jobId, name, data, opts, delay, ARGV[i + 4], priority, ARGV[i + 5], lifo,
      ARGV[i + 7] ~= "" and ARGV[i + 7], dedupId ~= "" and dedupId, awaited, traceContext)
    results[#results + 1] = jobId
    results[#results + 1] = 1
  end
end
return results
