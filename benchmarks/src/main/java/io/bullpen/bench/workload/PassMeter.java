package io.bullpen.bench.workload;

import io.bullpen.bench.BenchContext;
import io.bullpen.bench.peer.Peer;
import io.bullpen.bench.redis.RedisControl;
import io.bullpen.bench.redis.UsageWindow;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * What one pass of a queue workload ({@code producers}, {@code parent-child}, {@code mixed})
 * cost, for figures per unit of work (an add, a flow, a job): Redis commands (INFO commandstats,
 * the harness's own calls left out), Redis CPU (INFO cpu: {@code used_cpu_sys + used_cpu_user},
 * in microseconds, finer than {@code /proc}'s 10 ms ticks) and the CPU time of the client
 * process or processes (from {@code /proc}).
 */
final class PassMeter {
    private final RedisControl control;
    private final UsageWindow window;
    private final double redisCpuSecondsBefore;

    private PassMeter(BenchContext ctx, List<Long> clientPids) throws IOException {
        this.control = ctx.control();
        this.window = UsageWindow.start(control, ctx.redisPid(), clientPids);
        this.redisCpuSecondsBefore = redisCpuSeconds(control);
    }

    /**
     * @param peer a peer
     * @return true for the job queues (Bullpen, BullMQ); Redisson's list has no jobs to add or process this way
     */
    static boolean queuePeer(Peer peer) {
        return !peer.name().equals("redisson");
    }

    /**
     * Resets Redis's statistics and notes the CPU times.
     *
     * @param ctx the benchmark's Redis
     * @param clientPids the processes doing the client's work
     * @return the running meter
     * @throws IOException on a Redis error
     */
    static PassMeter start(BenchContext ctx, List<Long> clientPids) throws IOException {
        return new PassMeter(ctx, clientPids);
    }

    /**
     * @return what was spent since the start
     * @throws IOException on a Redis error
     */
    Cost stop() throws IOException {
        double redisCpuSeconds = redisCpuSeconds(control) - redisCpuSecondsBefore;
        UsageWindow.Usage usage = window.stop();
        return new Cost(usage.commands(), redisCpuSeconds * 1e6, usage.clientCpuNanos() / 1e3, usage.calls());
    }

    /** used_cpu_sys + used_cpu_user from INFO cpu: Redis's own CPU time in seconds. */
    private static double redisCpuSeconds(RedisControl control) throws IOException {
        String info = control.info("cpu");
        return Double.parseDouble(RedisControl.infoText(info, "used_cpu_sys"))
                + Double.parseDouble(RedisControl.infoText(info, "used_cpu_user"));
    }

    /**
     * Spent in one pass.
     *
     * @param commands Redis commands executed, those run by scripts included
     * @param redisCpuMicros redis-server's CPU time
     * @param clientCpuMicros the client processes' CPU time
     * @param calls calls per command (INFO commandstats)
     */
    record Cost(long commands, double redisCpuMicros, double clientCpuMicros, Map<String, Long> calls) {
        double commandsPer(double units) {
            return commands / units;
        }

        double redisMicrosPer(double units) {
            return redisCpuMicros / units;
        }

        double clientMicrosPer(double units) {
            return clientCpuMicros / units;
        }
    }
}
