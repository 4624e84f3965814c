# Sourced by add-cost.sh, worker-call-cost.sh and trickle-cost.sh: one redis-server for a measurement.
# start_redis OUT [callgrind|plain] starts $server (the caller's; default callgrind: under valgrind --tool=callgrind,
# --hz 1, its files in OUT as callgrind.out.<pid>.*) on a free port, without persistence, sets port and pid, stops
# it when the script exits, and returns once it answers.
start_redis() {
  local out=$1 how=${2:-callgrind}
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  local args=(--port "$port" --bind 127.0.0.1 --save "" --appendonly no --latency-tracking no)
  if [[ $how == callgrind ]]; then
    valgrind --tool=callgrind --callgrind-out-file="$out/callgrind.out.%p" "$server" "${args[@]}" --hz 1 \
      >"$out/valgrind.log" 2>&1 &
  else
    "$server" "${args[@]}" >"$out/redis.log" 2>&1 &
  fi
  pid=$!
  trap "kill $pid 2>/dev/null || true" EXIT
  for _ in $(seq 1 300); do
    redis-cli -p "$port" ping >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  echo "redis-server on port $port did not answer within 30 s (see $out)" >&2
  return 1
}
