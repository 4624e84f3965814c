#!/usr/bin/env bash
# Redis's instructions and requests per job at a trickle, Bullpen beside BullMQ: each job added to
# an idle worker, the next after its completion (io.bullpen.bench.TrickleCostMain, peers/bullmq/trickle-cost.js):
#   benchmarks/trickle-cost.sh [jobs]   (default 200)
# Each side gets its own redis-server under valgrind --tool=callgrind (--hz 1); counters are zeroed after
# 100 jobs of warm-up. Calls: script calls (FCALL, EVALSHA, EVAL) and blocking pops (BZPOPMIN), the requests
# that only a client sends, from INFO commandstats over the whole run (warm-up included), per job.
# Environment: REDIS_SERVER (default redis-server from the PATH), BENCH_JAR (default
# benchmarks/target/bullpen-bench.jar), BULLMQ_DIR (default benchmarks/peers/bullmq, npm-installed).
set -euo pipefail
jobs=${1:-200}
here=$(cd "$(dirname "$0")" && pwd)
server=${REDIS_SERVER:-redis-server}
jar=${BENCH_JAR:-$here/target/bullpen-bench.jar}
bullmq=${BULLMQ_DIR:-$here/peers/bullmq}
run() {
  local name=$1; shift
  local out port pid
  out=$(mktemp -d)
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  valgrind --tool=callgrind --callgrind-out-file="$out/callgrind.out.%p" "$server" --port "$port" --bind 127.0.0.1 \
    --save "" --appendonly no --latency-tracking no --hz 1 >"$out/valgrind.log" 2>&1 &
  pid=$!
  trap "kill $pid 2>/dev/null || true" EXIT
  for _ in $(seq 1 300); do
    redis-cli -p "$port" ping >/dev/null 2>&1 && break
    sleep 0.1
  done
  "$@" "$port" "$jobs" "$pid"
  local requests
  requests=$(redis-cli -p "$port" info commandstats | awk -F'[:=,]' '/^cmdstat_(fcall|evalsha|eval|bzpopmin):/ {n+=$3} END {print n}')
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  local f total
  f=$(ls "$out"/callgrind.out."$pid".* | sort -t. -k3 -n | tail -1)
  total=$(grep -m1 '^summary:' "$f" | awk '{print $2}')
  printf '%-8s instructions per job %8d  (%d / %d); script calls and pops per job %.2f; files %s\n' \
    "$name" $((total / jobs)) "$total" "$jobs" "$(echo "$requests / ($jobs + 100)" | bc -l)" "$out"
}
run bullpen java -cp "$jar" io.bullpen.bench.TrickleCostMain
(cd "$bullmq" && run bullmq node trickle-cost.js)
