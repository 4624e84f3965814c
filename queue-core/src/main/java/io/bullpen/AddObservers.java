package io.bullpen;

import io.bullpen.instrument.Instrumentation;
import io.bullpen.instrument.Instrumentation.Adding;
import io.bullpen.internal.Instrumentations;
import io.bullpen.internal.TraceHeaders;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One add call as the instrumentations see it: {@link Instrumentation#addStarting} on the adding
 * thread (collecting the headers to store with the jobs), then each one's {@link Adding#ended}.
 * Only made when the queue has instrumentations, so a plain add creates none of this.
 */
final class AddObservers {
    private final List<Adding> endings;
    /** The headers as the add script stores them ({@code tc}); null for none. */
    final String traceContext;

    private AddObservers(List<Adding> endings, String traceContext) {
        this.endings = endings;
        this.traceContext = traceContext;
    }

    static AddObservers start(List<Instrumentation> all, String queue, String operation, List<? extends JobSpec<?>> specs) {
        return start(all, queue, specs.get(0).name(), specs.size(), "addBulk".equals(operation));
    }

    /**
     * A job scheduler's upsert, seen as an add of one job (its iterations carry its headers):
     * {@link Adding#ended} gets the pending iteration's id.
     */
    static AddObservers startUpsert(List<Instrumentation> all, String queue, String jobName) {
        return start(all, queue, jobName, 1, false);
    }

    private static AddObservers start(List<Instrumentation> all, String queue, String firstName, int count, boolean bulk) {
        Map<String, String> headers = new LinkedHashMap<>();
        List<Adding> endings = new ArrayList<>(all.size());
        Instrumentations.each(all, "addStarting", i -> {
            Adding ending = i.addStarting(queue, firstName, count, bulk, headers);
            if (ending != null && ending != Adding.NONE) {
                endings.add(ending);
            }
        });
        String stored;
        try {
            stored = TraceHeaders.encode(headers);
        } catch (IllegalArgumentException e) {
            stored = null;
        }
        return new AddObservers(endings, stored);
    }

    /** Off Redisson's I/O threads: the add ended with these jobs, or failed. */
    void ended(List<? extends Job<?>> added, Throwable error) {
        if (endings.isEmpty()) {
            return;
        }
        endedIds(error != null ? List.of() : added.stream().map(Job::id).toList(), error);
    }

    /** As {@link #ended}, with the jobs' ids. */
    void endedIds(List<String> ids, Throwable error) {
        for (Adding ending : endings) {
            try {
                ending.ended(ids, error);
            } catch (RuntimeException | LinkageError e) {
                org.slf4j.LoggerFactory.getLogger(AddObservers.class)
                        .warn("instrumentation threw in addEnded; ignored", e);
            }
        }
    }
}
