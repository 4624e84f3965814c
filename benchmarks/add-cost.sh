#!/usr/bin/env bash
# Redis's cost per added job, from one thread (io.bullpen.bench.AddCostMain):
#   benchmarks/add-cost.sh callgrind MODE [jobs]   instructions of redis-server per job (valgrind --tool=callgrind,
#                                                 --hz 1, counters zeroed and dumped around the measured adds)
#   benchmarks/add-cost.sh timed MODE [jobs]       INFO commandstats usec per call and the server's CPU time
#                                                 (utime + stime) per job, on a plain redis-server
# MODE: single (Queue.add: addCoalesced, one job per call) or bulk:K (addBulk of K jobs: addJob).
# Environment: REDIS_SERVER (default redis-server from the PATH; a build with symbols gives callgrind_annotate
# function names), BENCH_JAR (default benchmarks/target/bullpen-bench.jar), LUA_DIR (a folder holding
# io/bullpen/lua/scripts/ put before the jar on the class path: measures scripts without rebuilding the jar),
# OUT (folder for the callgrind files, default a temporary one; kept).
set -euo pipefail
kind=${1:?callgrind or timed}
mode=${2:-single}
jobs=${3:-2000}
here=$(cd "$(dirname "$0")" && pwd)
server=${REDIS_SERVER:-redis-server}
jar=${BENCH_JAR:-$here/target/bullpen-bench.jar}
cp=$jar
if [[ -n "${LUA_DIR:-}" ]]; then cp=$LUA_DIR:$jar; fi
out=${OUT:-$(mktemp -d)}
# shellcheck source=redis-for-cost.sh
. "$here/redis-for-cost.sh"
if [[ $kind == callgrind ]]; then start_redis "$out"; else start_redis "$out" plain; fi
if [[ $kind == callgrind ]]; then
  java -cp "$cp" io.bullpen.bench.AddCostMain "$port" "$mode" "$jobs" 3000 "$pid"
  dump=$(ls -t "$out"/callgrind.out."$pid".* | head -1)
  total=$(grep -m1 '^summary:\|^totals:' "$dump" | awk '{print $2}')
  echo "instructions per job: $((total / jobs))  ($total / $jobs; $dump)"
else
  java -cp "$cp" io.bullpen.bench.AddCostMain "$port" "$mode" "$jobs" 20000 "$pid" cpu
fi
