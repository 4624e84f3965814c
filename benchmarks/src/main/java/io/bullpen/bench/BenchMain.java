package io.bullpen.bench;

import io.bullpen.bench.peer.Peer;
import io.bullpen.bench.peer.Peers;
import io.bullpen.bench.redis.RedisControl;
import io.bullpen.bench.redis.RedisServerProcess;
import io.bullpen.bench.workload.EndToEndTimes;
import io.bullpen.bench.workload.Workloads;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The benchmark CLI: {@code java -jar benchmarks/target/bullpen-bench.jar [workload...] [--quick]
 * [--peers bullpen,bullmq,redisson] [--runs N]}.
 * <ol>
 * <li>starts a redis-server of its own on a free port (no persistence, hz 10);</li>
 * <li>for each workload, run after run, for each peer in turn: FLUSHALL, then the workload;</li>
 * <li>prints one table to stdout: per metric and peer the median over runs, the min-max range
 *     and the ratio Bullpen/peer. Progress goes to the log (stderr).</li>
 * </ol>
 * Exits 0 when every run succeeded, 1 when one failed (its cells read "error"), 2 on bad usage.
 */
public final class BenchMain {
    private static final Logger log = LoggerFactory.getLogger(BenchMain.class);

    private BenchMain() {
    }

    /**
     * @param args see {@link BenchOptions#USAGE}
     */
    public static void main(String[] args) {
        System.exit(run(args, System.out));
    }

    /**
     * Runs the benchmark and prints its table.
     *
     * @param args the command line
     * @param out where the table goes
     * @return the exit code
     */
    public static int run(String[] args, PrintStream out) {
        BenchOptions options;
        try {
            options = BenchOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.print(BenchOptions.USAGE);
            return 2;
        }
        if (options.help()) {
            out.print(BenchOptions.USAGE);
            return 0;
        }
        long start = System.nanoTime();
        try (RedisServerProcess server = RedisServerProcess.start(RedisServerProcess.findBinary(options.redisServer()), options.hz());
             RedisControl control = RedisControl.connect(server.port())) {
            BenchContext ctx = new BenchContext(server, control, options.sizes(), bullmqDir(options));
            List<Peer> peers = options.peers().stream().map(Peers::create).toList();
            List<Workload> workloads = Workloads.known(options.sizes(), options.quick(),
                            EndToEndTimes.of(options.quick(), options.duration())).stream()
                    .filter(w -> options.workloads().contains(w.name())).toList();
            Results results = runAll(ctx, workloads, peers, options.runs());
            String version = RedisControl.infoText(control.info("server"), "redis_version");
            List<Metric> metrics = new ArrayList<>();
            workloads.forEach(w -> metrics.addAll(w.metrics()));
            out.printf(Locale.ROOT, "Bullpen benchmarks (%s): %s; median of %d run(s), (min-max) when more than one%n",
                    options.quick() ? "--quick" : "full", String.join(", ", options.workloads()), options.runs());
            out.printf(Locale.ROOT, "Redis %s (hz %d, no persistence) on %d cores, Java %s, %s; took %.0f s%n%n",
                    version, options.hz(), Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"),
                    System.getProperty("os.name") + " " + System.getProperty("os.arch"), (System.nanoTime() - start) / 1e9);
            out.print(ResultTable.render(metrics, peers, results));
            out.flush();
            return results.anyFailed() ? 1 : 0;
        } catch (Exception e) {
            log.error("benchmark failed", e);
            return 1;
        }
    }

    private static Results runAll(BenchContext ctx, List<Workload> workloads, List<Peer> peers, int runs) throws Exception {
        Results results = new Results();
        for (Workload workload : workloads) {
            for (int run = 1; run <= runs; run++) {
                for (Peer peer : peers) {
                    if (results.failed(peer.name(), workload.name())) {
                        continue;
                    }
                    ctx.control().flushAll();
                    log.info("{} run {}/{}: {}", workload.name(), run, runs, peer.title());
                    long t = System.nanoTime();
                    try {
                        results.add(peer.name(), workload.run(ctx, peer));
                        log.info("{} run {}/{}: {} done in {} s", workload.name(), run, runs, peer.title(),
                                Math.round((System.nanoTime() - t) / 1e9));
                    } catch (Exception e) {
                        log.error("{} run {}/{} failed for {}", workload.name(), run, runs, peer.title(), e);
                        results.fail(peer.name(), workload.name());
                    }
                }
            }
        }
        ctx.control().flushAll();
        return results;
    }

    /** The BullMQ peer's folder: --bullmq-dir, else benchmarks/peers/bullmq found from the jar or the working directory. */
    static Path bullmqDir(BenchOptions options) throws Exception {
        if (options.bullmqDir() != null) {
            return Path.of(options.bullmqDir()).toAbsolutePath();
        }
        List<Path> candidates = new ArrayList<>();
        // target/bullpen-bench.jar or target/classes -> the module's folder
        Path code = Path.of(BenchMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        if (code.getParent() != null && code.getParent().getParent() != null) {
            candidates.add(code.getParent().getParent().resolve("peers/bullmq"));
        }
        candidates.add(Path.of("benchmarks/peers/bullmq"));
        candidates.add(Path.of("peers/bullmq"));
        for (Path candidate : candidates) {
            if (Files.exists(candidate.resolve("package.json"))) {
                return candidate.toAbsolutePath().normalize();
            }
        }
        return candidates.get(0).toAbsolutePath().normalize();
    }
}
