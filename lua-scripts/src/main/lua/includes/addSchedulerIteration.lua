--[[
  addSchedulerIteration: create a job scheduler's next job at `due` (epoch ms) and record it as
  the scheduler's one pending iteration. The job id is deterministic ("repeat-<schedulerId>-<due>"),
  so no iteration can be enqueued twice, whoever asks. Honours the scheduler's limit and endAt:
  when the schedule has ended (or due <= 0) nothing is created and the scheduler is marked done
  (score -1 in q.schedulers). `following` (ms, optional) is the run after this one, precomputed
  by Java so a worker's take can create the next iteration atomically. Scheduler keys are built
  from q.base (same slot). The scheduler's trace headers (tc, from its upsert) are copied to the job.
  Returns the pending job id, or false when the schedule has ended.
]]
--- @include "addDelayed"
--- @include "pushReady"
--- @include "signalWorkers"
--- @include "emitEvent"
--- @include "addExpiry"

local function addSchedulerIteration(q, schedulerId, due, following)
  local sKey = q.base .. "scheduler:" .. schedulerId
  local s = redis.call("HMGET", sKey, "name", "data", "opts", "priority", "iterations", "limit", "endAt", "tc")
  local iterations = tonumber(s[5]) or 0
  local limit, endAt = tonumber(s[6]) or -1, tonumber(s[7]) or -1
  if due <= 0 or (limit >= 0 and iterations >= limit) or (endAt >= 0 and due > endAt) then
    redis.call("HSET", sKey, "jobId", "", "next", -1)
    redis.call("HDEL", sKey, "following")
    redis.call("ZADD", q.schedulers, -1, schedulerId)
    return false
  end
  local jobId = "repeat-" .. schedulerId .. "-" .. tostring(due)
  local jobKey = q.jobPrefix .. jobId
  if redis.call("EXISTS", jobKey) == 0 then
    local priority = tonumber(s[4]) or 0
    local delay = due - q.now
    local fields = {"name", s[1], "data", s[2], "timestamp", q.now, "schedulerId", schedulerId}
    if s[3] and s[3] ~= "" then
      fields[#fields + 1] = "opts"
      fields[#fields + 1] = s[3]
    end
    if priority > 0 then
      fields[#fields + 1] = "priority"
      fields[#fields + 1] = priority
    end
    if delay > 0 then
      fields[#fields + 1] = "delay"
      fields[#fields + 1] = delay
    end
    -- A template with a group: its iterations are grouped jobs (the group is in the options).
    local group = s[3] and string.find(s[3], '"group"', 1, true) and cjson.decode(s[3]).group or false
    if group then
      fields[#fields + 1] = "grp"
      fields[#fields + 1] = group
    end
    if s[8] then
      fields[#fields + 1] = "tc"
      fields[#fields + 1] = s[8]
    end
    redis.call("HSET", jobKey, unpack(fields))
    if s[3] then
      addExpiry(q, jobId, s[3], math.max(delay, 0))
    end
    local state = "delayed"
    if delay > 0 then
      addDelayed(q, jobId, due)
    else
      state = pushReady(q, jobId, priority, false, group)
      signalWorkers(q, 0)
    end
    emitEvent(q, "added", jobId, "name", s[1], "state", state, "delay", math.max(delay, 0), "schedulerId", schedulerId)
    iterations = iterations + 1
  end
  redis.call("HSET", sKey, "jobId", jobId, "next", due, "iterations", iterations)
  if following and following > 0 then
    redis.call("HSET", sKey, "following", following)
  else
    redis.call("HDEL", sKey, "following")
  end
  redis.call("ZADD", q.schedulers, due, schedulerId)
  return jobId
end
