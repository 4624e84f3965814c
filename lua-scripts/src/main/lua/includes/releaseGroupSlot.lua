--[[
  releaseGroupSlot: a grouped job stops being active (finished, retried, stalled, handed back,
  removed): its group's active count goes down, and the group comes back to groups:ready when
  it has ready jobs and may run again (signalling the marker), or leaves the registry when it
  has nothing left (groups: G.forget). group: the job's grp field when the caller read it or the
  worker passed it (false = none), nil = read it here (only while the queue uses groups: no
  command otherwise). The group's active field is left at 0 rather than deleted (absent and 0
  mean the same to every reader; G.forget deletes it). While no group setting exists (meta
  gsettings unset) a group's readiness never depends on its slots: only the forget check runs.
]]
--- @include "groups"
--- @include "readMeta"

local function releaseGroupSlot(q, jobId, group)
  readMeta(q)
  if not q.groupsOn then
    return
  end
  if group == nil then
    group = redis.call("HGET", q.jobPrefix .. jobId, "grp")
  end
  if not group then
    return
  end
  local jobsKey, stateKey = groups(q, group)
  -- An active of 0 stays (it reads as none; G.forget drops it): one command less per finish.
  -- "-1", not -1: a number argument costs a printf("%.17g").
  local active = redis.call("HINCRBY", stateKey, "active", "-1")
  if active < 0 then
    redis.call("HDEL", stateKey, "active")
    active = 0
  end
  if not q.gSettings then
    -- No concurrency or pause anywhere (meta gsettings unset): a freed slot readies no group; a
    -- group left with nothing ready or active leaves the registry. One command less per finish.
    if active == 0 and redis.call("EXISTS", jobsKey) == 0 then
      groups(q).forget(q, group, stateKey)
    end
    return
  end
  local G = groups(q)
  -- Still in groups:ready (it had jobs and room) and busy: nothing to do. An idle one may have
  -- been emptied by a take (which drops it only on its next visit): then it leaves now.
  local ready = redis.call("ZSCORE", q.groupsReady, group)
  if ready and active > 0 then
    return
  end
  if redis.call("EXISTS", jobsKey) == 1 then
    if ready then
      return
    end
    G.ready(q, group, nil, true)
  else
    G.forget(q, group, stateKey)
  end
end
