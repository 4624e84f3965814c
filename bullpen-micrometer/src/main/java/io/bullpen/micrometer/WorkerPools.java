package io.bullpen.micrometer;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.jvm.ExecutorServiceMetrics;
import io.micrometer.core.instrument.search.Search;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;

/**
 * The workers' own pools, measured by Micrometer's {@link ExecutorServiceMetrics} while each worker
 * runs: bound when the worker hands its pool over, removed from the registry when it stops (so a
 * closed worker leaves no gauge of a dead pool behind). Micrometer 1.15's binder cannot unbind, so
 * the meters it registered are found by their tags and removed one by one.
 */
final class WorkerPools {
    private final MeterRegistry registry;
    private final Map<List<String>, List<Meter.Id>> bound = new ConcurrentHashMap<>();

    WorkerPools(MeterRegistry registry) {
        this.registry = registry;
    }

    void bind(String queue, String worker, ExecutorService pool) {
        Tags tags = tags(queue, worker);
        new ExecutorServiceMetrics(pool, "bullpen-" + queue, tags).bindTo(registry);
        List<Meter.Id> ids = Search.in(registry).tags(tags).meters().stream()
                .map(Meter::getId).filter(id -> id.getName().startsWith("executor")).toList();
        bound.put(List.of(queue, worker), ids);
    }

    void unbind(String queue, String worker) {
        List<Meter.Id> ids = bound.remove(List.of(queue, worker));
        if (ids != null) {
            ids.forEach(registry::remove);
        }
    }

    static Tags tags(String queue, String worker) {
        return Tags.of("queue", queue, "worker", worker);
    }
}
