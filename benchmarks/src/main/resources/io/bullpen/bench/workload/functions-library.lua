#!lua name=bullpen_bench
--[[
  The functions benchmark's library (FunctionsWorkload): the catalog's moveToActive source,
  unchanged, as a function (FCALL moveToActive), and a no-op (FCALL noop) to price the call
  itself next to EVALSHA of noop.lua. The line below is replaced with moveToActive's source.
]]
local function moveToActive(KEYS, ARGV)
--MOVE_TO_ACTIVE_SOURCE--
end
redis.register_function('moveToActive', moveToActive)
redis.register_function('noop', function(KEYS, ARGV) return 1 end)
