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
# shellcheck source=redis-for-cost.sh
. "$here/redis-for-cost.sh"
run() {
  local name=$1; shift
  local out
  out=$(mktemp -d)
  start_redis "$out"
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
