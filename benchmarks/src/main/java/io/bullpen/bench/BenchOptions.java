package io.bullpen.bench;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The command line: {@code [workload...] [--quick] [--peers bullpen,bullmq,redisson] [--runs N]
 * [--hz N] [--duration S] [--redis-server PATH] [--bullmq-dir PATH]}.
 *
 * @param workloads the workloads to run, in order (all when none is named)
 * @param quick reduced sizes, one run by default
 * @param peers the peers' names, in column order
 * @param runs runs per workload and peer
 * @param hz the Redis server's hz
 * @param duration seconds of each end-to-end pass, or null for the workloads' defaults
 * @param redisServer the redis-server executable, or null to look on the PATH
 * @param bullmqDir the BullMQ peer's folder, or null to find it next to the jar
 * @param help true when usage was asked for
 */
public record BenchOptions(List<String> workloads, boolean quick, List<String> peers, int runs, int hz,
                           Integer duration, String redisServer, String bullmqDir, boolean help) {
    /** The workloads, in the order a full run does them. */
    public static final List<String> ALL_WORKLOADS = List.of("processing", "adding", "delayed", "cost", "scale");
    /** The flow-control workloads: run only when named, or all of them with {@code flow}. */
    public static final List<String> FLOW_WORKLOADS = List.of("limiter", "wakeup", "fairness", "groupcost");
    /** The job-control workloads: run only when named. */
    public static final List<String> CONTROL_WORKLOADS = List.of("cancel", "await");
    /** The throughput workloads: run only when named. */
    public static final List<String> THROUGHPUT_WORKLOADS = List.of("spread", "functions", "producers", "parent-child",
            "batch");
    /** The end-to-end workloads: run only when named, or both with {@code e2e}. */
    public static final List<String> E2E_WORKLOADS = List.of("mixed", "latency");
    /** The peers, in column order. */
    public static final List<String> ALL_PEERS = List.of("bullpen", "bullmq", "redisson");

    /** What {@code --help} prints. */
    public static final String USAGE = """
            usage: java -jar benchmarks/target/bullpen-bench.jar [workload...] [options]
              workloads: processing adding delayed cost scale (default: these five, "all")
                         limiter wakeup fairness groupcost (flow control; only when named, or "flow")
                         cancel (job control; only when named)
                         await (job control; only when named)
                         spread functions producers parent-child batch (throughput; only when named)
                         mixed latency (end to end; only when named, or "e2e")
              --quick              reduced sizes, 1 run (under 2 minutes)
              --peers LIST         comma-separated, from bullpen,bullmq,redisson (default: all)
              --runs N             runs per workload and peer; the table shows the median (default 3, --quick 1)
              --hz N               the Redis server's hz (default 10)
              --duration S         seconds of each mixed and latency pass (default 60 and 30, --quick 5)
              --redis-server PATH  the redis-server binary (default: from the PATH)
              --bullmq-dir PATH    the BullMQ peer's folder (default: benchmarks/peers/bullmq next to the jar)
            """;

    /**
     * @param args the command line
     * @return the options
     * @throws IllegalArgumentException naming the bad argument
     */
    public static BenchOptions parse(String... args) {
        Set<String> workloads = new LinkedHashSet<>();
        boolean quick = false;
        List<String> peers = ALL_PEERS;
        Integer runs = null;
        int hz = 10;
        Integer duration = null;
        String redisServer = null;
        String bullmqDir = null;
        boolean help = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--quick" -> quick = true;
                case "--help", "-h" -> help = true;
                case "--peers" -> peers = peers(value(args, ++i, arg));
                case "--runs" -> runs = positive(value(args, ++i, arg), arg);
                case "--hz" -> hz = positive(value(args, ++i, arg), arg);
                case "--duration" -> duration = positive(value(args, ++i, arg), arg);
                case "--redis-server" -> redisServer = value(args, ++i, arg);
                case "--bullmq-dir" -> bullmqDir = value(args, ++i, arg);
                default -> {
                    if (arg.equals("all")) {
                        workloads.addAll(ALL_WORKLOADS);
                    } else if (arg.equals("flow")) {
                        workloads.addAll(FLOW_WORKLOADS);
                    } else if (arg.equals("e2e")) {
                        workloads.addAll(E2E_WORKLOADS);
                    } else if (ALL_WORKLOADS.contains(arg) || FLOW_WORKLOADS.contains(arg)
                            || CONTROL_WORKLOADS.contains(arg) || THROUGHPUT_WORKLOADS.contains(arg)
                            || E2E_WORKLOADS.contains(arg)) {
                        workloads.add(arg);
                    } else {
                        throw new IllegalArgumentException("unknown argument '" + arg + "'; workloads are " + ALL_WORKLOADS
                                + " and " + FLOW_WORKLOADS + " and " + CONTROL_WORKLOADS + " and " + THROUGHPUT_WORKLOADS
                                + " and " + E2E_WORKLOADS);
                    }
                }
            }
        }
        List<String> chosen = workloads.isEmpty() ? ALL_WORKLOADS
                : java.util.stream.Stream.of(ALL_WORKLOADS, FLOW_WORKLOADS, CONTROL_WORKLOADS, THROUGHPUT_WORKLOADS, E2E_WORKLOADS).flatMap(List::stream)
                        .filter(workloads::contains).toList();
        return new BenchOptions(chosen, quick, peers, runs != null ? runs : quick ? 1 : 3, hz, duration, redisServer, bullmqDir, help);
    }

    /** @return the sizes for these options */
    public Sizes sizes() {
        return quick ? Sizes.quick() : Sizes.full();
    }

    private static List<String> peers(String list) {
        List<String> peers = new ArrayList<>();
        for (String name : list.split(",")) {
            String peer = name.trim().toLowerCase(java.util.Locale.ROOT);
            if (!ALL_PEERS.contains(peer)) {
                throw new IllegalArgumentException("unknown peer '" + name + "'; peers are " + ALL_PEERS);
            }
            if (!peers.contains(peer)) {
                peers.add(peer);
            }
        }
        return ALL_PEERS.stream().filter(peers::contains).toList();
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    private static int positive(String value, String option) {
        try {
            int n = Integer.parseInt(value);
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(option + " must be a whole number >= 1 but was '" + value + "'");
    }
}
