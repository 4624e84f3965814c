package io.bullpen.tracing;

import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.SenderContext;
import java.util.Map;

/**
 * The context of a {@code send <queue>} observation: one add call (one job, or a bulk add). Its
 * carrier is the map of headers stored with the call's jobs; a propagating tracing handler
 * injects the W3C trace context ({@code traceparent}, {@code tracestate}) into it on start.
 */
public final class BullpenSendContext extends SenderContext<Map<String, String>> {
    private final String queue;
    private final String jobName;
    private final int jobCount;
    private final boolean bulk;
    private volatile String jobId;

    BullpenSendContext(Map<String, String> headers, String queue, String jobName, int jobCount, boolean bulk) {
        super((carrier, key, value) -> carrier.put(key, value), Kind.PRODUCER);
        setCarrier(headers);
        this.queue = queue;
        this.jobName = jobName;
        this.jobCount = jobCount;
        this.bulk = bulk;
    }

    /** @return the queue's name (the destination) */
    public String queue() {
        return queue;
    }

    /** @return the name of the call's first job */
    public String jobName() {
        return jobName;
    }

    /** @return how many jobs the call adds */
    public int jobCount() {
        return jobCount;
    }

    /** @return whether the call is a bulk add (then the observation is one for the whole batch) */
    public boolean bulk() {
        return bulk;
    }

    /** @return the added job's id, once a single add ended; null before, for a bulk add, or a duplicate */
    public String jobId() {
        return jobId;
    }

    void jobId(String id) {
        this.jobId = id;
    }
}
