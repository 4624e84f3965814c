--[[
  pushReady: put a job where workers take it. A grouped job (group ~= nil/false) goes to its
  group's ZSET group:<g> (score priority * 2^32 + seq, FIFO within a priority; front = true puts
  it before every job of its priority: priority * 2^32 - seq - 1; seq from meta gin, which also
  counts grouped jobs made ready: gin - gout are ready), the group is registered, and the group
  enters groups:ready when it may run (groups: G.ready), waking workers (marker); a group that had
  ready jobs already is where it belongs, so only its first ready job costs those commands, the
  meta read and building the group functions (the others use groups(q, g) for the keys alone).
  Otherwise a priority > 0 goes to prioritized (score = priority * 2^32 + a per-queue sequence,
  so equal priorities run FIFO); else wait, which workers take from the right: LPUSH queues at
  the back, RPUSH (front = true) runs next.
  Callers read the job's priority and group with one HMGET (fields priority, grp).
  Returns the state label the job is now in (a grouped ready job is "waiting"); sets
  q.waitLength to wait's length after a push to wait.
]]
--- @include "groups"
--- @include "readMeta"
--- @include "signalWorkers"

local function pushReady(q, jobId, priority, front, group)
  if group then
    local jobsKey = groups(q, group)
    -- gin counts the grouped jobs made ready and is their sequence too: one command for both
    -- (grouped ready jobs = gin - gout; the pick and removals count gout).
    -- Numbers go to Redis as text made here: a Lua number argument is formatted with
    -- printf("%.17g") (about 2,000 instructions; "%d" costs half that).
    local seq = redis.call("HINCRBY", q.meta, "gin", "1") % 4294967296
    local score = front and (priority * 4294967296 - seq - 1) or (priority * 4294967296 + seq)
    redis.call("ZADD", jobsKey, string.format("%d", score), jobId)
    -- A group that already had ready jobs is registered and where it belongs (ready, limited,
    -- paused or at its concurrency), and the queue's groups flag is set (by that first job,
    -- never cleared): only its first ready job reads meta, builds the group functions, registers
    -- the group and readies it.
    if redis.call("ZCARD", jobsKey) == 1 then
      readMeta(q)
      if not q.groupsOn then
        redis.call("HSET", q.meta, "groups", "1", "flow", "1")
        q.groupsOn = true
      end
      local G = groups(q)
      redis.call("ZADD", q.groups, "NX", "0", group)
      -- G.ready signals only when the group enters groups:ready, but a take that picked a
      -- group's last job leaves it there (empty, until its next visit): the group's first ready
      -- job must wake a worker all the same (signalWorkers sends one marker per call).
      if G.ready(q, group, nil, true) then
        signalWorkers(q, 0)
      end
    end
    return "waiting"
  end
  if priority > 0 then
    local seq = redis.call("HINCRBY", q.meta, "seq", "1")
    redis.call("ZADD", q.prioritized, string.format("%d", priority * 4294967296 + (seq % 4294967296)), jobId)
    return "prioritized"
  end
  if front then
    q.waitLength = redis.call("RPUSH", q.wait, jobId)
  else
    q.waitLength = redis.call("LPUSH", q.wait, jobId)
  end
  return "waiting"
end
