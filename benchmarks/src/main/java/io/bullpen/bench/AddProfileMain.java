package io.bullpen.bench;

import io.bullpen.bench.peer.Peer;
import io.bullpen.bench.peer.PeerDriver;
import io.bullpen.bench.peer.bullpen.BullpenPeer;
import io.bullpen.bench.redis.ProcCpu;
import io.bullpen.bench.redis.RedisControl;
import io.bullpen.bench.redis.RedisServerProcess;
import java.nio.file.Path;
import java.util.Locale;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;

/**
 * Profiles Bullpen's single adds ({@code queue.add} from P threads) with Java Flight Recorder,
 * after a warm-up of that same loop: {@code java -cp benchmarks/target/bullpen-bench.jar
 * io.bullpen.bench.AddProfileMain [producers] [jobs] [warmUpJobs] [passes] [out.jfr]} (defaults
 * 1, 20,000, 60,000, 3, {@code profile-add-p1.jfr}). Prints jobs/s and the process's and Redis's
 * CPU per add of each of {@code passes} measured passes (no recorder), then records one more pass
 * with execution samples every 1 ms and allocation samples. Read it with {@code jfr print
 * --events jdk.ExecutionSample} or {@code jfr summary}.
 */
public final class AddProfileMain {
    private AddProfileMain() {
    }

    /** utime and stime ticks of this process's threads, summed by name with digits dropped. */
    private static java.util.Map<String, long[]> threadTicks(long pid) throws java.io.IOException {
        java.util.Map<String, long[]> ticks = new java.util.TreeMap<>();
        try (java.util.stream.Stream<Path> tasks = java.nio.file.Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                try {
                    String stat = java.nio.file.Files.readString(task.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replaceAll("[0-9]+", "N");
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    long[] t = ticks.computeIfAbsent(name, n -> new long[2]);
                    t[0] += Long.parseLong(f[11]);
                    t[1] += Long.parseLong(f[12]);
                } catch (java.io.IOException gone) {
                    // the thread ended
                }
            }
        }
        return ticks;
    }

    private static String perAdd(java.util.Map<String, long[]> before, java.util.Map<String, long[]> after, int jobs) {
        StringBuilder b = new StringBuilder();
        after.forEach((name, t) -> {
            long[] was = before.getOrDefault(name, new long[2]);
            long u = t[0] - was[0];
            long s = t[1] - was[1];
            if (u + s > 0) {
                b.append(String.format(Locale.ROOT, "%s %.1f/%.1f; ", name, u * 1e4 / jobs, s * 1e4 / jobs));
            }
        });
        return b.toString();
    }

    /**
     * @param args producers, jobs, warm-up jobs, measured passes, the recording's file
     * @throws Exception on failure
     */
    public static void main(String[] args) throws Exception {
        int producers = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        int jobs = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
        int warmUp = args.length > 2 ? Integer.parseInt(args[2]) : 60_000;
        int passes = args.length > 3 ? Integer.parseInt(args[3]) : 3;
        Path file = Path.of(args.length > 4 ? args[4] : "profile-add-p" + producers + ".jfr");
        try (RedisServerProcess server = RedisServerProcess.start(RedisServerProcess.findBinary(null), 10);
             RedisControl control = RedisControl.connect(server.port())) {
            BenchContext ctx = new BenchContext(server, control, Sizes.quick(), Path.of("."));
            Peer peer = new BullpenPeer();
            try (PeerDriver driver = peer.open(ctx, "producers")) {
                driver.addConcurrently("add-warm", warmUp, producers);
                control.flushAll();
                long pid = ProcessHandle.current().pid();
                for (int pass = 0; pass < passes; pass++) {
                    java.util.Map<String, long[]> threadsBefore = threadTicks(pid);
                    long redisBefore = ProcCpu.nanos(server.pid());
                    long cpuBefore = ProcCpu.nanos(pid);
                    double seconds = driver.addConcurrently("measure-" + pass, jobs, producers);
                    long cpu = ProcCpu.nanos(pid) - cpuBefore;
                    long redisCpu = ProcCpu.nanos(server.pid()) - redisBefore;
                    System.out.printf(Locale.ROOT, "p%d pass %d: %d adds in %.2f s = %.0f adds/s; client CPU %.1f us/add, "
                            + "Redis CPU %.1f us/add%n", producers, pass, jobs, seconds, jobs / seconds,
                            cpu / 1e3 / jobs, redisCpu / 1e3 / jobs);
                    java.util.Map<String, long[]> threadsAfter = threadTicks(pid);
                    long live = 0;
                    for (var e : threadsAfter.entrySet()) {
                        long[] was = threadsBefore.getOrDefault(e.getKey(), new long[2]);
                        live += e.getValue()[0] + e.getValue()[1] - was[0] - was[1];
                    }
                    // The producer threads ended with the pass: their CPU is the process's minus the live threads'.
                    System.out.printf(Locale.ROOT, "  per add, us: ended (producer) threads %.1f; user/sys by live thread: %s%n",
                            (cpu / 1e7 - live) * 1e4 / jobs, perAdd(threadsBefore, threadsAfter, jobs));
                    control.flushAll();
                }
                if (!"none".equals(file.toString())) {
                    try (Recording recording = new Recording(jdk.jfr.Configuration.getConfiguration("profile"))) {
                        recording.enable("jdk.ExecutionSample").withPeriod(java.time.Duration.ofMillis(1));
                        recording.enable("jdk.ObjectAllocationSample");
                        recording.start();
                        driver.addConcurrently("profile", jobs, producers);
                        recording.stop();
                        if (recording.getState() == RecordingState.STOPPED) {
                            recording.dump(file);
                        }
                    }
                    System.out.println("recording in " + file.toAbsolutePath());
                }
            }
        }
    }
}
