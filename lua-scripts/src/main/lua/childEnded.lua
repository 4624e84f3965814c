--[[
  childEnded: apply the end of one child in another slot to its parent, in the parent's slot
  (the relay of flow:outbox entries, see notifyParent). Idempotent by child: an end applied
  already, or a child the parent does not wait for, changes nothing. The parent may fail (FAIL_PARENT)
  or move on to wait/delayed (see notifyParent's applyChildEnd); a failed parent's own parents
  are told in turn (directly in this slot, or through this queue's flow:outbox).

  KEYS:
    1 wait          LIST    <prefix>:{<queue>}:wait
    2 prioritized   ZSET    <prefix>:{<queue>}:prioritized
    3 delayed       ZSET    <prefix>:{<queue>}:delayed
    4 marker        ZSET    <prefix>:{<queue>}:marker
    5 meta          HASH    <prefix>:{<queue>}:meta
    6 events        STREAM  <prefix>:{<queue>}:events
    7 failed        ZSET    <prefix>:{<queue>}:failed
    8 waitingChildren ZSET  <prefix>:{<queue>}:waiting-children
    9 flowOutbox    LIST    <prefix>:{<queue>}:flow:outbox
    10 metricsFailed LIST   <prefix>:{<queue>}:metrics:failed  (per-minute counts: a parent failed by its child)
    11 id           STRING  <prefix>:{<queue>}:id  (endDeduplication of a failed parent)
  ARGV:
    1 jobKeyPrefix  <prefix>:{<queue>}:job:  (the parent's queue)
    2 now           epoch millis
    3 parentId      the parent job
    4 index         the child's index among the parent's children (its par entry)
    5 child         the child: "<queue>:<id>"
    6 name          the child's job name
    7 state         "completed" or "failed"
    8 value         the child's return value (JSON) when completed, its failed reason when failed
  Returns:
    1 applied, 0 the child was not pending (applied before, or not waited for), -1 no such parent
  Events:
    failed, waiting or delayed of the parent (see notifyParent)
]]
--- @include "notifyParent"

local q = {
  wait = KEY.wait, prioritized = KEY.prioritized, delayed = KEY.delayed, marker = KEY.marker, meta = KEY.meta,
  events = KEY.events, failed = KEY.failed, waitingChildren = KEY.waitingChildren, flowOutbox = KEY.flowOutbox,
  metrics = { failed = KEY.metricsFailed }, id = KEY.id,
  jobPrefix = ARG.jobKeyPrefix, now = tonumber(ARG.now), nowText = ARG.now
}
local F = notifyParent(q)
return F.apply(ARG.parentId, ARG.index, ARG.child, ARG.name, ARG.state, ARG.value)
