--[[
  limitTake: the queue-level limits of a take (GCRA with booked starts, docs/adr/0004-gcra-rate-limit.md;
  global concurrency counted from the leases; wake-ups, docs/adr/0009-wake-ups-without-polling.md).
  All settings come from readMeta's one HMGET; with none set, limitTake returns nil and the take
  costs no command more.
  limitTake(q, f): how many jobs this take may start, as a table L, or nil when no limit is set:
    L.count   the capped count: f.count, at most `concurrency - ZCOUNT leases (redisNow +inf` (expired
              leases do not count), and at most the starts the rate limit books within the
              horizon min(200 ms, lockMs / 4)
    L.capped  true when a limit (not f.count) set L.count
    L.rate    true when starts are booked (a rate limit or a manual limitedUntil in the future)
    L.wake    the caller-clock time to look again when the rate limit capped the take (the next
              start minus the horizon), else nil
  Rate limit: GCRA with booked starts. Interval T = per / max; a start s is allowed when
  s >= tat - burst * T, then tat = max(tat, s) + T; each job of the call is booked at
  s = max(redisNow, tat - burst * T, limitedUntil). A limitedUntil that has passed is deleted
  (with meta flow when nothing else of flow control is in use, see readMeta).
  bookStart(q, L): the booked start of the next leased job, or nil when L does not book: returns
  processedOn (ceil(s), Redis clock) and the ms until it (0 = now), and advances the GCRA state.
  commitLimit(q, L): stores rl:tat when the take booked under a rate limit.
  signalCapacity(q): after a call freed global slots (and after its own take), wakes one idle
  worker (marker 0) when ready jobs remain and the global concurrency has room.
]]
--- @include "readMeta"
--- @include "signalWorkers"
--- @include "redisNowMs"
--- @include "pickReadyJobs"

-- The earliest start the GCRA state allows now (Redis clock, may be fractional).
local function nextStart(q, L, tat)
  local s = math.max(L.redisNow, tat - L.slack)
  if L.untilMs > s then
    s = L.untilMs
  end
  return s
end

local function limitTake(q, f)
  readMeta(q)
  if not (q.concurrency or q.rlMax or q.limitedUntil) then
    return nil
  end
  local L = {count = f.count}
  if q.concurrency then
    local active = redis.call("ZCOUNT", q.leases, string.format("(%d", redisNowMs(q)), "+inf")
    L.count = math.max(0, math.min(L.count, q.concurrency - active))
  end
  if q.rlMax or q.limitedUntil then
    local now = redisNowMs(q)
    if q.limitedUntil and q.limitedUntil <= now then
      q.limitedUntil = nil
      if q.concurrency or q.rlMax or q.groupsOn or q.gSettings then
        redis.call("HDEL", q.meta, "limitedUntil")
      else
        -- It was the only flow-control field in use: plain takes again (readMeta's flow).
        redis.call("HDEL", q.meta, "limitedUntil", "flow")
      end
    end
    if q.rlMax or q.limitedUntil then
      L.rate = true
      L.redisNow = now
      L.untilMs = q.limitedUntil or 0
      L.interval = q.rlMax and (q.rlPer / q.rlMax) or 0
      L.slack = (q.rlBurst or 0) * L.interval
      L.tat = q.rlTat or 0
      L.horizon = math.min(200, f.lockMs / 4)
      -- Count the starts that fit in the horizon; bookStart repeats the same steps per job.
      local tat, n = L.tat, 0
      while n < L.count do
        local s = nextStart(q, L, tat)
        if s > now + L.horizon then
          L.wake = q.now + math.ceil(s - L.horizon - now)
          break
        end
        n = n + 1
        tat = math.max(tat, s) + L.interval
      end
      L.count = n
    end
  end
  L.capped = L.count < f.count
  return L
end

local function bookStart(q, L)
  if not (L and L.rate) then
    return nil
  end
  local s = nextStart(q, L, L.tat)
  L.tat = math.max(L.tat, s) + L.interval
  L.booked = true
  local on = math.ceil(s)
  return string.format("%d", on), on - L.redisNow
end

local function commitLimit(q, L)
  if L and L.booked and q.rlMax then
    redis.call("HSET", q.meta, "rl:tat", string.format("%.3f", L.tat))
  end
end

local function signalCapacity(q)
  readMeta(q)
  -- A take held back by the rate limit already told its worker when to look again.
  if not q.concurrency or q.signalledReady or q.limitWake then
    return
  end
  if not readyLeft(q) then
    return
  end
  if redis.call("ZCOUNT", q.leases, string.format("(%d", redisNowMs(q)), "+inf") < q.concurrency then
    signalWorkers(q, 0)
  end
end
