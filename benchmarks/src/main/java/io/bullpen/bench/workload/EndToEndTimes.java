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
     * @param quick short passes (5 s)
     * @param durationSeconds {@code --duration}: both workloads' passes, or null for the defaults
     *     (60 s for {@code mixed}, 30 s for {@code latency}; 5 s each with {@code --quick})
     * @return the times
     */
    public static EndToEndTimes of(boolean quick, Integer durationSeconds) {
        if (durationSeconds != null) {
            return new EndToEndTimes(durationSeconds, durationSeconds, Math.max(1, Math.min(5, durationSeconds / 6)));
        }
        return quick ? new EndToEndTimes(5, 5, 1) : new EndToEndTimes(60, 30, 5);
    }
}
