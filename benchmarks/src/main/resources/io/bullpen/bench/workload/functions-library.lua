#!lua name=bullpen_bench
--[[
  The functions benchmark's no-op (FunctionsWorkload): FCALL noop prices the call itself next to
  EVALSHA of noop.lua. moveToActive runs as the catalog's own library (Script.functionLibrary).
]]
redis.register_function('noop', function(KEYS, ARGV) return 1 end)
