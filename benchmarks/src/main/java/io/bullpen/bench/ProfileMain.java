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
 * Profiles Bullpen's client at one concurrency with Java Flight Recorder, after a proper warm-up:
 * {@code java -cp benchmarks/target/bullpen-bench.jar io.bullpen.bench.ProfileMain [concurrency]
 * [jobs] [warmUpJobs] [out.jfr]} (defaults 1, 50,000, 50,000, {@code profile-c1.jfr}). Warms the
 * JIT on {@code warmUpJobs} jobs at that concurrency (a discarded pass), then records only the
 * measured pass (the "profile" settings, execution samples every 1 ms) and prints jobs/s and
 * the process's CPU per job. Read it with {@code jfr print --events jdk.ExecutionSample} or
 * {@code jfr summary}.
 */
public final class ProfileMain {
    private ProfileMain() {
    }

    /**
     * @param args concurrency, jobs, warm-up jobs, the recording's file
     * @throws Exception on failure
     */
    public static void main(String[] args) throws Exception {
        int concurrency = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        int jobs = args.length > 1 ? Integer.parseInt(args[1]) : 50_000;
        int warmUp = args.length > 2 ? Integer.parseInt(args[2]) : 50_000;
        Path file = Path.of(args.length > 3 ? args[3] : "profile-c" + concurrency + ".jfr");
        Sizes sizes = Sizes.quick();
        try (RedisServerProcess server = RedisServerProcess.start(RedisServerProcess.findBinary(null), 10);
             RedisControl control = RedisControl.connect(server.port())) {
            BenchContext ctx = new BenchContext(server, control, sizes, Path.of("."));
            Peer peer = new BullpenPeer();
            try (PeerDriver driver = peer.open(ctx, "processing")) {
                driver.prefill("profile-warm", warmUp);
                driver.process("profile-warm", warmUp, concurrency);
                control.flushAll();
                // A measured pass without the recorder (its sampling costs CPU too), then the recorded one.
                driver.prefill("measure", jobs);
                long pid = ProcessHandle.current().pid();
                long redisBefore = ProcCpu.nanos(server.pid());
                long cpuBefore = ProcCpu.nanos(pid);
                double seconds = driver.process("measure", jobs, concurrency);
                long cpu = ProcCpu.nanos(pid) - cpuBefore;
                long redisCpu = ProcCpu.nanos(server.pid()) - redisBefore;
                System.out.printf(Locale.ROOT, "c%d: %d jobs in %.2f s = %.0f jobs/s; client CPU %.1f us/job, "
                        + "Redis CPU %.1f us/job%n", concurrency, jobs, seconds, jobs / seconds, cpu / 1e3 / jobs,
                        redisCpu / 1e3 / jobs);
                control.flushAll();
                driver.prefill("profile", jobs);
                try (Recording recording = new Recording(jdk.jfr.Configuration.getConfiguration("profile"))) {
                    // 1 ms instead of the settings' 10-20 ms: enough samples from a client that mostly waits on Redis.
                    recording.enable("jdk.ExecutionSample").withPeriod(java.time.Duration.ofMillis(1));
                    recording.start();
                    driver.process("profile", jobs, concurrency);
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
