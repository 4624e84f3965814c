package io.bullpen.bench.workload;

import io.bullpen.bench.BenchContext;
import io.bullpen.bench.Metric;
import io.bullpen.bench.Workload;
import io.bullpen.bench.peer.Peer;
import io.bullpen.bench.peer.PeerDriver;
import io.bullpen.bench.redis.ProcCpu;
import io.bullpen.bench.redis.RedisControl;
import io.bullpen.internal.KeyScheme;
import io.bullpen.lua.Script;
import io.bullpen.lua.ScriptCatalog;
import io.bullpen.lua.ScriptHeader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code functions}, a micro-benchmark: the same Lua called as a script by
 * EVALSHA and as a Redis Function by FCALL (the library Bullpen loads on Redis 7+,
 * {@code Script.functionLibrary()}: the includes defined once at load, the script's own code the
 * function's body), Redis's cost per call. Two scripts: {@code moveToActive}
 * taking one job per call from a queue of pre-added jobs (the hot take of a worker at
 * concurrency 1), and {@code return 1} (the cost of the call itself). The calls are sent one at a
 * time from the harness's own connection; passes alternate EVALSHA and FCALL (which goes first
 * alternates too), three times each,
 * each on a fresh queue of as many jobs as calls. Per call: redis-server's CPU from /proc (which
 * includes reading the request and writing the reply) and the command's time from INFO
 * commandstats ({@code usec} of evalsha / fcall: the script's run, its commands included).
 * Bullpen only (it prepares the queue); the other peers show n/a.
 */
final class FunctionsWorkload implements Workload {
    private static final Logger log = LoggerFactory.getLogger(FunctionsWorkload.class);
    private static final String LIBRARY = "bullpen_bench";
    private static final int ROUNDS = 3;

    private final int calls;
    private final Metric takeEval = Metric.lower(name(), "Redis CPU us/call, moveToActive (1 job), EVALSHA", 1);
    private final Metric takeFcall = Metric.lower(name(), "Redis CPU us/call, moveToActive (1 job), FCALL", 1);
    private final Metric takeEvalUsec = Metric.lower(name(), "commandstats us/call, moveToActive, EVALSHA", 1);
    private final Metric takeFcallUsec = Metric.lower(name(), "commandstats us/call, moveToActive, FCALL", 1);
    private final Metric takeRatio = Metric.lower(name(), "Redis CPU FCALL / EVALSHA, moveToActive", 2);
    private final Metric noopEval = Metric.lower(name(), "Redis CPU us/call, return 1, EVALSHA", 1);
    private final Metric noopFcall = Metric.lower(name(), "Redis CPU us/call, return 1, FCALL", 1);
    private final Metric noopRatio = Metric.lower(name(), "Redis CPU FCALL / EVALSHA, return 1", 2);

    /** @param quick 5,000 calls per pass instead of 20,000 */
    FunctionsWorkload(boolean quick) {
        this.calls = quick ? 5_000 : 20_000;
    }

    @Override
    public String name() {
        return "functions";
    }

    @Override
    public List<Metric> metrics() {
        return List.of(takeEval, takeFcall, takeEvalUsec, takeFcallUsec, takeRatio, noopEval, noopFcall, noopRatio);
    }

    @Override
    public Map<Metric, Double> run(BenchContext ctx, Peer peer) throws Exception {
        if (!peer.hasFlowControl()) {
            return NotApplicable.all(metrics());
        }
        RedisControl redis = ctx.control();
        Script take = ScriptCatalog.classpath().get("moveToActive");
        String takeSha = (String) redis.call("SCRIPT", "LOAD", take.source());
        String noopSha = (String) redis.call("SCRIPT", "LOAD", resource("noop.lua"));
        // The no-op library names itself LIBRARY in its first line.
        redis.call("FUNCTION", "LOAD", "REPLACE", resource("functions-library.lua"));
        redis.call("FUNCTION", "LOAD", "REPLACE", take.functionLibrary("allow-oom"));
        long[] cpu = new long[4];
        long[] usec = new long[4];
        try (PeerDriver driver = peer.open(ctx, name())) {
            for (int round = 0; round < ROUNDS; round++) {
                for (int turn = 0; turn < 2; turn++) {
                    // EVALSHA first in even rounds, FCALL first in odd ones: drift hits both alike.
                    int variant = (turn + round) % 2;
                    boolean fcall = variant == 1;
                    String queue = "functions-" + round + (fcall ? "-fcall" : "-evalsha");
                    driver.prefill(queue, calls);
                    String[] command = takeCommand(queue, fcall ? "FCALL" : "EVALSHA", fcall ? take.functionName() : takeSha);
                    long[] spent = pass(ctx, command, fcall ? "fcall" : "evalsha");
                    cpu[variant] += spent[0];
                    usec[variant] += spent[1];
                    Object left = redis.call("LLEN", new KeyScheme(KeyScheme.DEFAULT_PREFIX, queue).waitList());
                    if (!Long.valueOf(0).equals(left)) {
                        throw new IllegalStateException(command[0] + " left " + left + " of " + calls + " jobs waiting");
                    }
                    String[] noop = fcall ? new String[] {"FCALL", "noop", "0"} : new String[] {"EVALSHA", noopSha, "0"};
                    spent = pass(ctx, noop, fcall ? "fcall" : "evalsha");
                    cpu[2 + variant] += spent[0];
                    usec[2 + variant] += spent[1];
                }
            }
        } finally {
            redis.call("FUNCTION", "DELETE", LIBRARY);
            redis.call("FUNCTION", "DELETE", take.functionName());
        }
        double per = (double) calls * ROUNDS;
        log.info("functions: Redis CPU ns per call (take EVALSHA, FCALL, noop EVALSHA, FCALL) {} {} {} {}",
                cpu[0] / per, cpu[1] / per, cpu[2] / per, cpu[3] / per);
        Map<Metric, Double> values = new LinkedHashMap<>();
        values.put(takeEval, cpu[0] / 1e3 / per);
        values.put(takeFcall, cpu[1] / 1e3 / per);
        values.put(takeEvalUsec, usec[0] / per);
        values.put(takeFcallUsec, usec[1] / per);
        values.put(takeRatio, (double) cpu[1] / cpu[0]);
        values.put(noopEval, cpu[2] / 1e3 / per);
        values.put(noopFcall, cpu[3] / 1e3 / per);
        values.put(noopRatio, (double) cpu[3] / cpu[2]);
        return values;
    }

    /** moveToActive's KEYS and ARGV as a worker sends them: one job, no stall scan, no janitor. */
    private static String[] takeCommand(String queue, String verb, String target) {
        KeyScheme keys = new KeyScheme(KeyScheme.DEFAULT_PREFIX, queue);
        List<ScriptHeader.Entry> names = ScriptCatalog.classpath().get("moveToActive").header().keys();
        List<String> command = new ArrayList<>(List.of(verb, target, Integer.toString(names.size())));
        names.forEach(entry -> command.add(keys.key(entry.name())));
        command.addAll(List.of(keys.jobPrefix(), Long.toString(System.currentTimeMillis()), "1", "bench-token", "30000", "",
                "100", "0", "1", "0"));
        return command.toArray(String[]::new);
    }

    /** Sends {@code command} {@link #calls} times; returns Redis's CPU ns and the command's commandstats usec. */
    private long[] pass(BenchContext ctx, String[] command, String stat) throws Exception {
        RedisControl redis = ctx.control();
        redis.resetStats();
        long before = ProcCpu.nanos(ctx.redisPid());
        for (int i = 0; i < calls; i++) {
            redis.call(command);
        }
        long cpu = ProcCpu.nanos(ctx.redisPid()) - before;
        return new long[] {cpu, commandUsec(redis, stat)};
    }

    private static long commandUsec(RedisControl redis, String command) throws Exception {
        String prefix = "cmdstat_" + command + ":";
        for (String line : redis.info("commandstats").split("\r\n")) {
            if (line.startsWith(prefix)) {
                int start = line.indexOf("usec=") + "usec=".length();
                return Long.parseLong(line.substring(start, line.indexOf(',', start)));
            }
        }
        throw new IllegalStateException("INFO commandstats has no " + command);
    }

    private static String resource(String name) throws java.io.IOException {
        try (java.io.InputStream in = FunctionsWorkload.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing benchmark resource " + name);
            }
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }
}
