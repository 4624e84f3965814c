--[[
  addCoalesced: add the jobs of several callers in one call, each on its own, in order, as if
  each were added by a call of its own (addJob) one after another: a coalesced call answers
  every job alone. A job whose custom id exists (also one added earlier in the same call) is not
  added: its id is returned with flag 0 and a "duplicated" event is emitted. A job with a
  deduplication id claims dedup:<id> (see claimDeduplication); when another job owns it, nothing
  is added: the owner's id is returned with flag 2. A ready job for a group that is at its
  maxSize is not added: {-8, group, maxSize} in its place (nothing of it written; the other jobs
  of the call are added). Otherwise the job is written as addJob writes it (insertJob; a deadline
  from expireAfter/expireAt: addExpiry).
  A job is a record of 5 arguments, then its non-default settings as name/value pairs: a plain
  job (no delay, priority, group, deduplication, await or trace headers) is 5 arguments (addJob
  takes 12 per job; each argument costs Redis ~1,300 instructions).
  The events stream is trimmed as by addJob (meta read when a job has a custom id or its
  automatic id is a multiple of 64; the cost rules are in docs/adr/0008-lua-cost-rules.md).

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
    2 now           epoch millis (the jobs' timestamp)
    3 job...        then one record per job: customId ("" = automatic id), name, data (JSON), opts
                    (JSON of non-default options, "" = defaults), n (how many arguments follow:
                    "0" for a plain job), then n arguments as name/value pairs, each at most once:
                    delay <ms> (> 0), priority <p> (> 0), lifo "1", group <g>, dedupId <id>,
                    dedupTtl <ms> (> 0; absent = the key lives until the owner ends), dedupFlags
                    <"d" debounce, "k" keepLastIfActive>, awaited <ms> (addAndAwait: how long the
                    result is kept), tc <trace headers> (see TraceHeaders; stored as tc)
  Returns:
    per job in order, either two entries jobId, flag (flag 1 = added, 0 = duplicate custom id,
    2 = deduplicated: jobId is the owner of the deduplication id), or one entry {-8, group,
    maxSize} when adding the job would put more ready jobs in its group than its maxSize (flat:
    Redis converts each nested table of a reply for ~2,500 instructions)
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
local results, none = {}, {}
local i = ARG_FROM.job
while i <= #ARGV do
  local customId, name, data, opts = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3]
  -- No tonumber for the plain job's "0" and absent settings: each costs ~600 instructions.
  local n = ARGV[i + 4] == "0" and 0 or tonumber(ARGV[i + 4])
  local s = n > 0 and {} or none
  for p = i + 5, i + 4 + n, 2 do
    s[ARGV[p]] = ARGV[p + 1]
  end
  i = i + 5 + n
  local delay, priority = s.delay and tonumber(s.delay) or 0, s.priority and tonumber(s.priority) or 0
  local group, dedupId = s.group, s.dedupId
  local jobId, duplicate, full = customId, false, nil
  if customId == "" then
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
  if not duplicate and group and delay <= 0 then
    local jobsKey, stateKey = addSidePaths(q).groups(q, group)
    local maxSize = tonumber(redis.call("HGET", stateKey, "maxSize"))
    if maxSize and redis.call("ZCARD", jobsKey) + 1 > maxSize then
      full = maxSize
    end
  end
  local claimed, owner = true, nil
  if not duplicate and not full and dedupId then
    claimed, owner = addSidePaths(q).claimDeduplication(q, {id = jobId, customId = customId, name = name, data = data, opts = opts,
      delay = delay, priority = priority, lifo = s.lifo == "1", group = group,
      dedupId = dedupId, ttl = tonumber(s.dedupTtl) or 0, flags = s.dedupFlags or "", tc = s.tc})
  end
  if duplicate then
    emitEvent(q, "duplicated", jobId, "name", name)
    results[#results + 1] = jobId
    results[#results + 1] = 0
  elseif full then
    results[#results + 1] = {-8, group, full}
  elseif not claimed then
    results[#results + 1] = owner
    results[#results + 1] = 2
  else
    insertJob(q, jobId, name, data, opts, delay, s.delay, priority, s.priority, s.lifo == "1", group, dedupId,
      s.awaited, s.tc)
    results[#results + 1] = jobId
    results[#results + 1] = 1
  end
end
return results
