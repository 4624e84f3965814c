--[[
  insertJob: the write of one job an add call adds (addJob, addCoalesced), once its id is known
  and it is neither a duplicate nor deduplicated: the job's hash (only fields with non-default
  values: lean hashes; its expiry deadline's field xp among them, addExpiry), then delayed (addDelayed) or ready
  (pushReady; a plain job, neither grouped nor prioritized, is pushed to wait here, as pushReady
  would), and its "added" event. addExpiry, addDelayed and pushReady come from addSidePaths, built
  only for a job that needs one of them. Wakes workers only when the job makes wait non-empty, goes
  to prioritized, or becomes the earliest delayed job; never while the queue is paused (see
  signalWorkers). delayText and priorityText are the caller's arguments (text goes to Redis as
  is: no number formatting); group, dedupId, awaited and tc are nil or false when absent.
]]
--- @include "signalWorkers"
--- @include "emitEvent"
--- @include "addSidePaths"

local function insertJob(q, jobId, name, data, opts, delay, delayText, priority, priorityText, lifo, group, dedupId,
                         awaited, tc)
  local fields = {"name", name, "data", data, "timestamp", q.nowText}
  if opts ~= "" then
    fields[#fields + 1] = "opts"
    fields[#fields + 1] = opts
  end
  if delay > 0 then
    fields[#fields + 1] = "delay"
    fields[#fields + 1] = delayText
  end
  if priority > 0 then
    fields[#fields + 1] = "priority"
    fields[#fields + 1] = priorityText
  end
  if group then
    fields[#fields + 1] = "grp"
    fields[#fields + 1] = group
  end
  if dedupId then
    fields[#fields + 1] = "dedupId"
    fields[#fields + 1] = dedupId
  end
  if awaited then
    fields[#fields + 1] = "awaited"
    fields[#fields + 1] = awaited
  end
  if tc then
    fields[#fields + 1] = "tc"
    fields[#fields + 1] = tc
  end
  -- addExpiry's own test first: a job without a deadline builds no side paths.
  if opts ~= "" and string.find(opts, '"expire', 1, true) then
    addSidePaths(q).addExpiry(q, jobId, opts, delay > 0 and delay or 0, fields)
  end
  redis.call("HSET", q.jobPrefix .. jobId, unpack(fields))
  if delay > 0 then
    addSidePaths(q).addDelayed(q, jobId, q.now + delay)
    emitEvent(q, "added", jobId, "name", name, "state", "delayed", "delay", delayText)
  else
    local state = "waiting"
    if group or priority > 0 then
      state = addSidePaths(q).pushReady(q, jobId, priority, lifo, group)
    elseif lifo then
      -- pushReady's push to wait, here: a plain add does not define pushReady and groups.
      q.waitLength = redis.call("RPUSH", q.wait, jobId)
    else
      q.waitLength = redis.call("LPUSH", q.wait, jobId)
    end
    -- A wait list that already held work has been signalled: a take that leaves jobs behind
    -- sets the marker again. Only a job that makes it non-empty needs to wake workers (a
    -- grouped job's group signals when it becomes ready: groups, G.ready).
    if not group and (state ~= "waiting" or q.waitLength == 1) then
      signalWorkers(q, 0)
    end
    emitEvent(q, "added", jobId, "name", name, "state", state)
  end
end
