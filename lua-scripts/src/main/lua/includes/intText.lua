--[[
  intText: an integer as the decimal text Redis takes. Lua 5.1 formats every number with
  sprintf (string.format, tostring, "..", or a number passed to redis.call), which showed in
  Redis's profile of a busy worker; the small counts nearly every job has (attempts started
  and made) come from a table instead. The cost rules hot scripts follow: docs/adr/0008-lua-cost-rules.md.
]]
local smallIntTexts = {"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16"}

local function intText(n)
  return smallIntTexts[n] or string.format("%d", n)
end
