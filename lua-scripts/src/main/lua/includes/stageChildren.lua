--[[
  stageChildren: children a processor added at runtime (JobContext.addChildren), recorded with the
  end of its attempt in the parent's slot, in the same script: a crash before the finish adds
  none; after it, every child is recorded here and will be created (the parent cannot run first).
  children: "<flowId>\n<edges>\n\n<chunks>": edges "<policy><queue>:<id>" one per line (policy F,
  I, R or C), the new children in order; chunks one JSON chunk per line (FlowRelay.Chunk: the jobs
  of one queue, parents before children, as addFlow takes them), where a new child's parents
  start with "#<k>" (k: its place among the edges) for this parent, not known before now.
  The edges are appended after the children it has (addChildEdges: kids, res, the pending bits in
  job:<id>:deps) and counted in its field pending; the chunks, "#<k>" replaced by
  "<queue>:<parentId>:<index>", are written as a committed staged flow (flow:<flowId>, a LIST,
  listed in flows:pending, score now): the relay creates them slot by slot, idempotently
  (FlowRelay.materialize; workers carry on one whose worker died). Keys from q.jobPrefix.
  Returns how many children were added.
]]
--- @include "addChildEdges"

local function stageChildren(q, jobId, jobKey, children)
  local base = string.sub(q.jobPrefix, 1, #q.jobPrefix - 4)
  local queue = string.match(base, "{([^{}]*)}:$")
  local flowId, edges, chunks = string.match(children, "^([^\n]*)\n(.-)\n\n(.*)$")
  local first = redis.call("LLEN", jobKey .. ":kids")
  local count = addChildEdges(jobKey, first, edges)
  redis.call("HINCRBY", jobKey, "pending", count)
  -- The parent as a JSON string's content: the chunks are JSON.
  local parent = string.sub(cjson.encode(queue .. ":" .. jobId), 2, -2)
  local stage = base .. "flow:" .. flowId
  for chunk in string.gmatch(chunks, "[^\n]+") do
    -- Only a key can match: a quote inside a JSON string is escaped.
    chunk = string.gsub(chunk, '"parents":"#(%d+)', function(k)
      return '"parents":"' .. parent .. ":" .. string.format("%d", first + tonumber(k))
    end)
    redis.call("RPUSH", stage, chunk)
  end
  redis.call("ZADD", base .. "flows:pending", q.nowText, flowId)
  return count
end
