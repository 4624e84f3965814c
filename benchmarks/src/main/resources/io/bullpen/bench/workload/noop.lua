-- The functions benchmark's no-op script (EVALSHA noop), priced against FCALL noop.
return 1
