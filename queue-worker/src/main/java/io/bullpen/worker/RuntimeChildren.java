package io.bullpen.worker;

import io.bullpen.JobOptions;
import io.bullpen.flow.FlowJob;
import io.bullpen.instrument.Instrumentation;
import io.bullpen.internal.AddObservers;
import io.bullpen.internal.FlowPlan;
import java.util.List;
import java.util.Map;

/**
 * The children a processor added ({@link JobContext#addChildren}), as one flow add below its job:
 * 1. planned with the worker's default job options for each child's queue (a child's own options
 *    win, option by option: the merge a {@code FlowProducer} add uses);
 * 2. seen by the worker's instrumentations as one bulk add, started on the processor's thread
 *    before the attempt's own observers end, so the add (and through its headers, stored with
 *    every child, the children's attempts) descends from the attempt;
 * 3. encoded for the finish record, which stages them;
 * 4. ended for the instrumentations when that record has landed: with the children's ids when the
 *    finish kept them (every job planned: a custom id that exists already is among them, as the
 *    relay creates the jobs later), else with the failure (or none: the attempt failed and
 *    dropped them).
 */
final class RuntimeChildren {
    /** No children were added. */
    static final RuntimeChildren NONE = new RuntimeChildren(null, List.of(), AddObservers.NONE);

    private final String encoded;
    private final List<String> ids;
    private final AddObservers observers;

    private RuntimeChildren(String encoded, List<String> ids, AddObservers observers) {
        this.encoded = encoded;
        this.ids = ids;
        this.observers = observers;
    }

    /**
     * Plans, starts and encodes the add (steps 1-3).
     *
     * @param staged the edges the processor added, in order
     * @param defaults per queue, the worker's default job options
     * @param instrumentations the worker's
     * @return the add; {@link #NONE} for no edges
     * @throws IllegalArgumentException when they cannot be encoded (the add is ended with it)
     */
    static RuntimeChildren plan(List<FlowJob.Edge> staged, Map<String, JobOptions> defaults,
                                List<Instrumentation> instrumentations) {
        if (staged.isEmpty()) {
            return NONE;
        }
        FlowPlan plan = FlowPlan.ofChildren(staged, FlowPlan.newFlowId(), defaults);
        FlowJob first = staged.get(0).child();
        AddObservers observers = AddObservers.start(instrumentations, first.queue(), first.name(), plan.jobCount(), true);
        plan.traceContext(observers.traceContext());
        try {
            return new RuntimeChildren(plan.encodeChildren(), plan.jobIds(), observers);
        } catch (IllegalArgumentException e) {
            observers.ended(List.of(), e);
            throw e;
        }
    }

    /** @return the children encoded for the finish record; null for none */
    String encoded() {
        return encoded;
    }

    /**
     * The finish that carried them landed (step 4).
     *
     * @param kept the finish staged the children (they are being created)
     * @param failure why the finish was not recorded; null when it was
     */
    void landed(boolean kept, Throwable failure) {
        observers.ended(kept ? ids : List.of(), kept ? null : failure);
    }
}
