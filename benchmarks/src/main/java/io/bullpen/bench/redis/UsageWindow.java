package io.bullpen.bench.redis;

import java.io.IOException;

/**
 * What Redis and one client process spent between {@link #start} and {@link #stop}: Redis
 * commands from INFO commandstats (reset at the start; commands run inside scripts count, the
 * harness's own INFO and CONFIG calls do not), and CPU time of redis-server and of the client.
 */
public final class UsageWindow {
    private final RedisControl redis;
    private final long redisPid;
    private final java.util.List<Long> clientPids;
    private final long controlSentBefore;
    private final long redisCpuBefore;
    private final long clientCpuBefore;

    private UsageWindow(RedisControl redis, long redisPid, java.util.List<Long> clientPids) throws IOException {
        this.redis = redis;
        this.redisPid = redisPid;
        this.clientPids = java.util.List.copyOf(clientPids);
        this.controlSentBefore = redis.sent();
        redis.resetStats();
        this.redisCpuBefore = ProcCpu.nanos(redisPid);
        this.clientCpuBefore = clientCpuNanos();
    }

    /**
     * Resets Redis's statistics and notes both processes' CPU time.
     *
     * @param redis the control connection
     * @param redisPid redis-server's process id
     * @param clientPid the client process's id (the harness itself for in-process peers)
     * @return the open window
     * @throws IOException on a Redis error
     */
    public static UsageWindow start(RedisControl redis, long redisPid, long clientPid) throws IOException {
        return new UsageWindow(redis, redisPid, java.util.List.of(clientPid));
    }

    /**
     * The same, for a client whose work is spread over several processes (their CPU times are summed).
     *
     * @param redis the control connection
     * @param redisPid redis-server's process id
     * @param clientPids the client processes' ids
     * @return the open window
     * @throws IOException on a Redis error
     */
    public static UsageWindow start(RedisControl redis, long redisPid, java.util.List<Long> clientPids) throws IOException {
        return new UsageWindow(redis, redisPid, clientPids);
    }

    private long clientCpuNanos() {
        return clientPids.stream().mapToLong(ProcCpu::nanos).sum();
    }

    /**
     * @return what was spent since the start
     * @throws IOException on a Redis error
     */
    public Usage stop() throws IOException {
        long redisCpu = ProcCpu.nanos(redisPid) - redisCpuBefore;
        long clientCpu = clientCpuNanos() - clientCpuBefore;
        // Our own commands since (and including) the reset; the INFO below does not count itself.
        long ours = redis.sent() - controlSentBefore;
        java.util.Map<String, Long> calls = redis.commandCalls();
        long commands = calls.values().stream().mapToLong(Long::longValue).sum() - ours;
        return new Usage(commands, redisCpu, clientCpu, calls);
    }

    /**
     * Spent in a window.
     *
     * @param commands Redis commands executed, including those run by scripts
     * @param redisCpuNanos redis-server's CPU time
     * @param clientCpuNanos the client process's (or processes') CPU time
     * @param calls calls per command (from INFO commandstats, the harness's own included)
     */
    public record Usage(long commands, long redisCpuNanos, long clientCpuNanos, java.util.Map<String, Long> calls) {
    }
}
