package io.bullpen.bench;

import io.bullpen.Queue;
import io.bullpen.Retention;
import io.bullpen.bench.peer.bullpen.Payload;
import io.bullpen.internal.Futures;
import io.bullpen.internal.KeyScheme;
import io.bullpen.internal.ScriptTypes.FetchArgs;
import io.bullpen.internal.ScriptTypes.Finish;
import io.bullpen.internal.ScriptTypes.RawJob;
import io.bullpen.internal.Scripts;
import java.util.ArrayList;
import java.util.List;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Redis's cost of each kind of worker call, one call at a time, on a redis-server run under
 * {@code valgrind --tool=callgrind} by the caller: {@code java -cp benchmarks/target/bullpen-bench.jar
 * io.bullpen.bench.WorkerCallCostMain PORT CALLS PID}. After a warm-up it runs five phases and
 * dumps callgrind's counters after each ({@code callgrind_control -d <phase> PID}), so each dump
 * holds one phase: {@code add} (2 x CALLS lone adds, {@code Queue.add}), {@code take} (2 x CALLS
 * takes of one job: moveToActive), {@code finish} (CALLS completed finishes that take nothing:
 * moveToFinished), {@code finishTakeEmpty} (CALLS completed finishes that ask for the next job of
 * an empty queue) and {@code takeEmpty} (CALLS takes of an empty queue). The calls go as a worker
 * sends them, through the scripts' runner (so as functions where the server has them).
 * {@code benchmarks/worker-call-cost.sh} starts the server and prints instructions per call.
 */
public final class WorkerCallCostMain {
    private WorkerCallCostMain() {
    }

    /**
     * @param args port, calls per phase, the callgrind process's pid
     * @throws Exception on failure
     */
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int calls = Integer.parseInt(args[1]);
        String pid = args[2];
        Config config = new Config();
        config.useSingleServer().setAddress("redis://127.0.0.1:" + port);
        RedissonClient redisson = Redisson.create(config);
        try {
            String name = "worker-call-cost";
            Queue<Payload> queue = Queue.builder(redisson, name, Payload.class).build();
            Scripts scripts = new Scripts(redisson, new KeyScheme(KeyScheme.DEFAULT_PREFIX, name));
            FetchArgs one = new FetchArgs(1, "bench-token", 30_000, "bench", 1_000, 100, 1);
            for (int i = 0; i < 50; i++) {
                queue.add("noop", new Payload(i));
            }
            finish(scripts, one.withCount(0), take(scripts, one, 50));
            dump("warm-up", pid);
            for (int i = 0; i < 2 * calls; i++) {
                queue.add("noop", new Payload(i));
            }
            dump("add", pid);
            List<RawJob> jobs = take(scripts, one, 2 * calls);
            dump("take", pid);
            finish(scripts, one.withCount(0), jobs.subList(0, calls));
            dump("finish", pid);
            finish(scripts, one, jobs.subList(calls, 2 * calls));
            dump("finishTakeEmpty", pid);
            for (int i = 0; i < calls; i++) {
                Futures.join(scripts.moveToActive(System.currentTimeMillis(), one));
            }
            dump("takeEmpty", pid);
        } finally {
            redisson.shutdown();
        }
    }

    private static List<RawJob> take(Scripts scripts, FetchArgs one, int count) {
        List<RawJob> jobs = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            List<RawJob> taken = Futures.join(scripts.moveToActive(System.currentTimeMillis(), one)).jobs();
            if (taken.size() != 1) {
                throw new IllegalStateException("take " + i + " of " + count + " found no job");
            }
            jobs.add(taken.get(0));
        }
        return jobs;
    }

    private static void finish(Scripts scripts, FetchArgs fetch, List<RawJob> jobs) {
        for (RawJob job : jobs) {
            Futures.join(scripts.moveToFinished(System.currentTimeMillis(), fetch, new Finish.Completed(job.id(),
                    job.lockToken(), 1, "null", Retention.keepAll(), null, null, null, 0)));
        }
    }

    private static void dump(String phase, String pid) throws Exception {
        Process p = new ProcessBuilder("callgrind_control", "-d", phase, pid).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (p.waitFor() != 0) {
            throw new IllegalStateException("callgrind_control -d " + phase + " " + pid + " failed");
        }
    }
}
