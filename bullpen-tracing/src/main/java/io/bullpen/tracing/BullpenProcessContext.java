package io.bullpen.tracing;

import io.bullpen.Job;
import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.ReceiverContext;
import java.util.Map;

/**
 * The context of a {@code process <queue>} observation: one attempt of one job. Its carrier is
 * the headers stored with the job at its add. With {@link BullpenTracing.ProcessParent#PRODUCER}
 * a propagating tracing handler extracts the producer's context from it and makes the attempt its
 * child; with {@link BullpenTracing.ProcessParent#LINK} the getter hides them (the attempt starts
 * a trace of its own) and {@link #producerHeaders()} gives them to a handler that adds a link.
 */
public final class BullpenProcessContext extends ReceiverContext<Map<String, String>> {
    private final String queue;
    private final Job<?> job;
    private final Map<String, String> producerHeaders;

    BullpenProcessContext(Map<String, String> headers, boolean parented, String queue, Job<?> job) {
        super(parented ? (carrier, key) -> carrier.get(key) : (carrier, key) -> null, Kind.CONSUMER);
        setCarrier(headers);
        this.queue = queue;
        this.job = job;
        this.producerHeaders = headers;
    }

    /** @return the queue's name (the destination) */
    public String queue() {
        return queue;
    }

    /** @return the job as the worker took it */
    public Job<?> job() {
        return job;
    }

    /** @return the headers stored with the job at its add (W3C trace context); empty when none */
    public Map<String, String> producerHeaders() {
        return producerHeaders;
    }
}
