package io.bullpen.internal;

import io.bullpen.instrument.Instrumentation;
import io.bullpen.instrument.Instrumentation.Adding;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One add call as the instrumentations see it, for every kind of add (a queue's add or bulk add,
 * a job scheduler's upsert, a flow add, the children a processor adds at runtime):
 * {@link Instrumentation#addStarting} on the thread whose context the add belongs to (collecting
 * the headers to store with the jobs, encoded once: {@link #traceContext}), then each one's
 * {@link Adding#ended}. Made only for a caller with instrumentations; {@link #NONE} observes
 * nothing. Not API.
 */
public final class AddObservers {
    private static final Logger log = LoggerFactory.getLogger(AddObservers.class);
    /** Observes nothing and stores no headers. */
    public static final AddObservers NONE = new AddObservers(List.of(), null);

    private final List<Adding> endings;
    private final String traceContext;

    private AddObservers(List<Adding> endings, String traceContext) {
        this.endings = endings;
        this.traceContext = traceContext;
    }

    /**
     * Calls each instrumentation's {@link Instrumentation#addStarting} on this thread.
     *
     * @param all the instrumentations
     * @param queue the queue of the call's first job
     * @param firstName the name of the call's first job
     * @param count how many jobs the call adds
     * @param bulk whether the call is a bulk add
     * @return what to tell when the add ended; {@link #NONE} without instrumentations
     */
    public static AddObservers start(List<Instrumentation> all, String queue, String firstName, int count, boolean bulk) {
        if (all.isEmpty()) {
            return NONE;
        }
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
            log.debug("trace headers cannot be stored; the jobs are added without them", e);
            stored = null;
        }
        return new AddObservers(endings, stored);
    }

    /** @return the headers as the add stores them (job field {@code tc}); null for none */
    public String traceContext() {
        return traceContext;
    }

    /**
     * Off Redisson's I/O threads: the add ended, each instrumentation's {@link Adding#ended}
     * (one that throws is logged and ignored).
     *
     * @param ids the ids of the jobs the call added; empty when it failed
     * @param error why it failed; null when it succeeded
     */
    public void ended(List<String> ids, Throwable error) {
        for (Adding ending : endings) {
            try {
                ending.ended(ids, error);
            } catch (RuntimeException | LinkageError e) {
                log.warn("instrumentation threw in addEnded; ignored", e);
            }
        }
    }
}
