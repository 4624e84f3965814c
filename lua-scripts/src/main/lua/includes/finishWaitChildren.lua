--[[
  finishWaitChildren: moveToFinished's "waitChildren" record (the processor asked to wait for its
  children: JobContext.waitForChildren; fields in its header's Records:). acceptUnusedAttempt
  checks the lock, fails a cancelled job (its staged children dropped) and records the children
  it added; then its staged data is written
  (writeStagedData; "" = none), and the attempt ends without using one
  (ats - 1 undoes the take's bump, atm unchanged). With a child pending (field pending > 0) the job
  goes to waiting-children (score now): the last child's end moves it on (notifyParent). With none
  pending it is ready again at once (pushReady: priority and group respected). Its group slot is
  released after it is in waiting-children (as a step's after delayed), before it is ready again
  (as a retry's). Outcome: waiting-children, or waiting / prioritized (failed when
  cancelled). Emits waitingChildren (prev = active), or waiting (prev = active).
]]
--- @include "acceptUnusedAttempt"
--- @include "acceptFinish"
--- @include "releaseGroupSlot"
--- @include "writeStagedData"
--- @include "pushReady"
--- @include "signalWorkers"
--- @include "emitEvent"

local function finishWaitChildren(q, b, i)
  local jobKey, jobId, group = acceptUnusedAttempt(q, b, i)
  if not jobKey then
    return
  end
  writeStagedData(q, b, jobKey, jobId, ARGV[i + FIELD.waitChildren.stagedData])
  redis.call("HINCRBY", jobKey, "ats", -1)
  local state = "waiting-children"
  if tonumber(redis.call("HGET", jobKey, "pending") or "0") > 0 then
    redis.call("ZADD", q.waitingChildren, q.nowText, jobId)
    emitEvent(q, "waitingChildren", jobId, "prev", "active")
    releaseGroupSlot(q, jobId, takenGroup(group))
  else
    releaseGroupSlot(q, jobId, takenGroup(group))
    local ready = redis.call("HMGET", jobKey, "priority", "grp")
    state = pushReady(q, jobId, tonumber(ready[1]) or 0, false, ready[2])
    if not ready[2] then
      signalWorkers(q, 0)
    end
    emitEvent(q, "waiting", jobId, "prev", "active")
  end
  b.outcomes[#b.outcomes + 1] = state
end
