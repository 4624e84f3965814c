#!/usr/bin/env bash
# Redis's instructions per worker call (io.bullpen.bench.WorkerCallCostMain), one call at a time:
#   benchmarks/worker-call-cost.sh [calls]   (default 300 per phase)
# Phases: add (Queue.add), take (moveToActive, one job), finish (moveToFinished, completed, no take),
# finishTakeEmpty (completed, asks for the next job of an empty queue), takeEmpty (moveToActive, nothing ready).
# redis-server runs under valgrind --tool=callgrind (--hz 1); each phase is one callgrind dump.
# Environment: REDIS_SERVER (default redis-server from the PATH; a build with symbols lets callgrind_annotate name
# functions), BENCH_JAR (default benchmarks/target/bullpen-bench.jar), OUT (folder for the dumps, default a temporary one).
set -euo pipefail
calls=${1:-300}
here=$(cd "$(dirname "$0")" && pwd)
server=${REDIS_SERVER:-redis-server}
jar=${BENCH_JAR:-$here/target/bullpen-bench.jar}
out=${OUT:-$(mktemp -d)}
# shellcheck source=redis-for-cost.sh
. "$here/redis-for-cost.sh"
start_redis "$out"
java -cp "$jar" io.bullpen.bench.WorkerCallCostMain "$port" "$calls" "$pid"
for f in $(ls "$out"/callgrind.out."$pid".* | sort -t. -k3 -n); do
  phase=$(grep -m1 '^desc: Trigger' "$f" | sed 's/.*dump //')
  total=$(grep -m1 '^summary:' "$f" | awk '{print $2}')
  case $phase in
    warm-up) continue ;;
    add|take) n=$((2 * calls)) ;;
    *) n=$calls ;;
  esac
  printf '%-16s instructions per call %8d  (%d / %d)\n' "$phase" $((total / n)) "$total" "$n"
done
echo "callgrind files: $out"
