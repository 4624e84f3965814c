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
 * The instrumentations' view of one flow add, whether a {@code FlowProducer} adds a flow or a
 * worker records the children a processor added at runtime: {@link Instrumentation#addStarting}
 * once (queue and name of the first job, every job of the plan counted, as a bulk add), on the
 * thread whose context the add belongs to; the headers it puts go to the plan, encoded once and
 * stored with every job of it; {@link #ended} reports the add's end to each. A caller without
 * instrumentations gets {@link #NONE}. Not API.
 */
public final class FlowAddObservers {
    private static final Logger log = LoggerFactory.getLogger(FlowAddObservers.class);
    /** Observes nothing. */
    public static final FlowAddObservers NONE = new FlowAddObservers(List.of());

    private final List<Adding> endings;

    private FlowAddObservers(List<Adding> endings) {
        this.endings = endings;
    }

    /**
     * Calls each instrumentation's {@link Instrumentation#addStarting} on this thread and gives
     * the plan the headers they put (a plan keeps none when they cannot be encoded).
     *
     * @param all the instrumentations
     * @param queue the queue of the add's first job
     * @param name the name of the add's first job
     * @param plan the add's jobs; call before its chunks are made
     * @return what to tell when the add ended
     */
    public static FlowAddObservers starting(List<Instrumentation> all, String queue, String name, FlowPlan plan) {
        if (all.isEmpty()) {
            return NONE;
        }
        Map<String, String> headers = new LinkedHashMap<>();
        List<Adding> endings = new ArrayList<>(all.size());
        Instrumentations.each(all, "addStarting", i -> {
            Adding ending = i.addStarting(queue, name, plan.jobCount(), true, headers);
            if (ending != null && ending != Adding.NONE) {
                endings.add(ending);
            }
        });
        try {
            plan.traceContext(TraceHeaders.encode(headers));
        } catch (IllegalArgumentException e) {
            log.debug("flow trace headers cannot be stored; the flow is added without them", e);
        }
        return endings.isEmpty() ? NONE : new FlowAddObservers(endings);
    }

    /**
     * The add ended: each instrumentation's {@link Adding#ended}, logging and ignoring one that throws.
     *
     * @param ids the ids of the jobs added; empty when it failed
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
