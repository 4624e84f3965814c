package io.bullpen.bench;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The values measured so far, per metric and peer, one per run. */
public final class Results {
    private final Map<Metric, Map<String, List<Double>>> values = new LinkedHashMap<>();
    private final Set<String> failed = new HashSet<>();

    /**
     * @param peer the peer's name
     * @param run the values of one run
     */
    public synchronized void add(String peer, Map<Metric, Double> run) {
        run.forEach((metric, value) ->
                values.computeIfAbsent(metric, m -> new LinkedHashMap<>()).computeIfAbsent(peer, p -> new ArrayList<>()).add(value));
    }

    /**
     * Notes that a run of a workload failed for a peer.
     *
     * @param peer the peer's name
     * @param workload the workload
     */
    public synchronized void fail(String peer, String workload) {
        failed.add(peer + "/" + workload);
    }

    /**
     * @param peer the peer's name
     * @param workload the workload
     * @return true when at least one run of it failed for that peer
     */
    public synchronized boolean failed(String peer, String workload) {
        return failed.contains(peer + "/" + workload);
    }

    /** @return true when any run failed */
    public synchronized boolean anyFailed() {
        return !failed.isEmpty();
    }

    /**
     * @param metric the metric
     * @param peer the peer's name
     * @return the values of the runs that produced one; empty when none did
     */
    public synchronized List<Double> values(Metric metric, String peer) {
        return List.copyOf(values.getOrDefault(metric, Map.of()).getOrDefault(peer, List.of()));
    }

    /**
     * @param metric the metric
     * @param peer the peer's name
     * @return the median of its runs; empty when there is none or the peer has no equivalent
     */
    public Optional<Summary> summary(Metric metric, String peer) {
        List<Double> v = new ArrayList<>(values(metric, peer));
        v.removeIf(d -> d.isNaN());
        if (v.isEmpty()) {
            return Optional.empty();
        }
        v.sort(Double::compare);
        int n = v.size();
        double median = n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
        return Optional.of(new Summary(median, v.get(0), v.get(n - 1), n));
    }

    /**
     * @param metric the metric
     * @param peer the peer's name
     * @return true when the peer ran but has no equivalent of the metric
     */
    public boolean notApplicable(Metric metric, String peer) {
        List<Double> v = values(metric, peer);
        return !v.isEmpty() && v.stream().allMatch(d -> d.isNaN());
    }

    /**
     * The runs of one metric for one peer.
     *
     * @param median the median
     * @param min the lowest run
     * @param max the highest run
     * @param runs how many runs
     */
    public record Summary(double median, double min, double max, int runs) {
    }
}
