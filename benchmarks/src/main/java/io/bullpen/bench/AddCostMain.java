package io.bullpen.bench;

import io.bullpen.JobOptions;
import io.bullpen.JobSpec;
import io.bullpen.Queue;
import io.bullpen.bench.peer.bullpen.Payload;
import io.bullpen.bench.redis.ProcCpu;
import io.bullpen.bench.redis.RedisControl;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Redis's cost of adding jobs, from one thread, on a redis-server started by the caller:
 * {@code java -cp benchmarks/target/bullpen-bench.jar io.bullpen.bench.AddCostMain PORT MODE
 * [jobs] [warmUpJobs] [pid] [callgrind|cpu]}. MODE is {@code single} ({@code Queue.add}, one call per
 * job: the coalesced add's script) or {@code bulk:K} ({@code addBulk} of K jobs per call: addJob).
 * Warms up on a queue it then flushes, adds 300 jobs so the measured adds find the keys in place,
 * then resets {@code INFO commandstats}, zeroes callgrind's counters (with a pid and {@code
 * callgrind}, the default: {@code callgrind_control -z}), adds the jobs, dumps the counters
 * ({@code callgrind_control -d}) and prints the calls and microseconds per call of each command;
 * with {@code cpu}, also the server process's CPU time per job (utime + stime of that pid). With redis-server under
 * {@code valgrind --tool=callgrind}, the dump's total divided by the jobs is the instructions per
 * add; {@code benchmarks/add-cost.sh} does both.
 */
public final class AddCostMain {
    private AddCostMain() {
    }

    /**
     * @param args port, mode, jobs, warm-up jobs, callgrind pid
     * @throws Exception on failure
     */
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        String mode = args.length > 1 ? args[1] : "single";
        int jobs = args.length > 2 ? Integer.parseInt(args[2]) : 2_000;
        int warmUp = args.length > 3 ? Integer.parseInt(args[3]) : 5_000;
        String pid = args.length > 4 ? args[4] : null;
        boolean cpu = args.length > 5 && args[5].equals("cpu");
        int perCall = mode.startsWith("bulk:") ? Integer.parseInt(mode.substring(5)) : 0;
        Config config = new Config();
        config.useSingleServer().setAddress("redis://127.0.0.1:" + port);
        RedissonClient redisson = Redisson.create(config);
        try (RedisControl control = RedisControl.connect(port)) {
            Queue<Payload> queue = Queue.builder(redisson, "cost", Payload.class).build();
            add(queue, perCall, 0, warmUp);
            control.flushAll();
            add(queue, perCall, 0, 300);
            control.resetStats();
            if (pid != null && !cpu) {
                callgrind("-z", pid);
            }
            long cpuBefore = cpu ? ProcCpu.nanos(Long.parseLong(pid)) : 0;
            long start = System.nanoTime();
            add(queue, perCall, 300, jobs);
            double seconds = (System.nanoTime() - start) / 1e9;
            if (cpu) {
                System.out.printf(Locale.ROOT, "redis CPU us/job %.2f%n",
                        (ProcCpu.nanos(Long.parseLong(pid)) - cpuBefore) / 1e3 / jobs);
            } else if (pid != null) {
                callgrind("-d", pid);
            }
            String stats = control.info("commandstats");
            System.out.printf(Locale.ROOT, "mode %s: %d jobs in %.2f s%n", mode, jobs, seconds);
            for (String line : stats.split("\r?\n")) {
                if (line.startsWith("cmdstat_")) {
                    // cmdstat_evalsha:calls=..,usec=..,usec_per_call=..,...
                    String[] parts = line.substring(8).split("[:,]");
                    String name = parts[0];
                    long calls = Long.parseLong(parts[1].substring(6));
                    long usec = Long.parseLong(parts[2].substring(5));
                    System.out.printf(Locale.ROOT, "%-10s calls/job %.3f  usec/call %.2f  usec/job %.2f%n", name,
                            calls / (double) jobs, usec / (double) calls, usec / (double) jobs);
                }
            }
        } finally {
            redisson.shutdown();
        }
    }

    private static void add(Queue<Payload> queue, int perCall, int from, int count) {
        if (perCall == 0) {
            for (int i = from; i < from + count; i++) {
                queue.add("noop", new Payload(i));
            }
            return;
        }
        for (int i = from; i < from + count; i += perCall) {
            List<JobSpec<Payload>> specs = new ArrayList<>(perCall);
            for (int j = i; j < Math.min(from + count, i + perCall); j++) {
                specs.add(JobSpec.of("noop", new Payload(j), JobOptions.defaults()));
            }
            queue.addBulk(specs);
        }
    }

    private static void callgrind(String flag, String pid) throws Exception {
        Process p = new ProcessBuilder("callgrind_control", flag, pid).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (p.waitFor() != 0) {
            throw new IllegalStateException("callgrind_control " + flag + " " + pid + " failed");
        }
    }
}
