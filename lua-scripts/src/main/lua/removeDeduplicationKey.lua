--[[
  removeDeduplicationKey: free a deduplication id by hand: delete dedup:<id> and the add kept for
  after its owner (dedup:<id>:next), whatever mode it was claimed in. The owner, if any, keeps
  running; its end finds the key no longer naming it and leaves a later owner's key alone.

  KEYS:
    1 dedup         STRING  <prefix>:{<queue>}:dedup:<id>  (the owner's job id; bound per call)
  ARGV:
    none
  Returns:
    1 the key existed and was deleted; 0 no job owned the id
  Events:
    none
]]
return redis.call("DEL", KEY.dedup, KEY.dedup .. ":next") > 0 and 1 or 0
