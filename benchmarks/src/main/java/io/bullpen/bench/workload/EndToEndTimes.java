package io.bullpen.bench.workload;

/**
 * How long the end-to-end workloads run: each measured pass, and the ramp before it that is left
 * out of the figures (the producers and the worker reaching a steady state).
 *
 * @param mixedSeconds each {@code mixed} pass's measured window
 * @param latencySeconds each {@code latency} pass's span of adds
 * @param rampSeconds before the window ({@code mixed}) or at the start of the adds ({@code latency}), not counted
 */
public record EndToEndTimes(int mixedSeconds, int latencySeconds, int rampSeconds) {
    /**
     * The ramp of a full run. Each pass is the first time its process runs that path at that pace
     * (a worker woken for one job at a time, the producers' loop): the JVM's compiler still works
     * on it for seconds after a short ramp, and its CPU would count as the pass's.
     */
    public static final int RAMP_SECONDS = 15;

    /**
     * @param quick short passes (5 s)
     * @param durationSeconds {@code --duration}: both workloads' passes, or null for the defaults
     *     (60 s for {@code mixed}, 30 s for {@code latency}; 5 s each with {@code --quick}); the ramp
     *     is half a pass, at most {@link #RAMP_SECONDS}
     * @return the times
     */
    public static EndToEndTimes of(boolean quick, Integer durationSeconds) {
        if (durationSeconds != null) {
            return new EndToEndTimes(durationSeconds, durationSeconds, Math.max(1, Math.min(RAMP_SECONDS, durationSeconds / 2)));
        }
        return quick ? new EndToEndTimes(5, 5, 1) : new EndToEndTimes(60, 30, RAMP_SECONDS);
    }
}
