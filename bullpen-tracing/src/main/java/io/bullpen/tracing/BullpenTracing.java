package io.bullpen.tracing;

import io.bullpen.Job;
import io.bullpen.RateLimitedException;
import io.bullpen.instrument.Instrumentation;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.ObservationRegistry;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * Traces Bullpen's queues and workers through Micrometer's Observation API, after OpenTelemetry's
 * messaging conventions (names and attributes: {@link BullpenTracingConvention}):
 * <ul>
 *   <li>{@code send <queue>} (producer): one observation per add call, on the adding thread (a
 *       child of the observation current there); one for a whole bulk add. A propagating tracing
 *       handler injects the W3C trace context into the headers the add stores with its jobs (one
 *       job field, written by the add's own script call).</li>
 *   <li>{@code process <queue>} (consumer): one observation per attempt, opened as the current
 *       observation on the processor's thread (so the processor's own observations and spans are
 *       its children), stopped when the processor returns or throws ({@code error.type}). Its
 *       relation to the producer: {@link ProcessParent}.</li>
 *   <li>A job scheduler's upsert is observed as a {@code send} of its first iteration; its context
 *       is stored with the scheduler and every iteration carries it, as the producer headers of a
 *       <em>link</em>: each iteration's attempt starts a trace of its own (attribute
 *       {@code bullpen.scheduler.id}), whatever the {@link ProcessParent}.</li>
 * </ul>
 *
 * <pre>{@code
 * BullpenTracing tracing = BullpenTracing.builder(observationRegistry).build();
 * Bullpen bullpen = Bullpen.builder(redisson).instrumentation(tracing).build();
 * }</pre>
 *
 * <p>The registry needs a tracing handler to make spans (Spring Boot configures Micrometer
 * Tracing's; without Spring, register {@code DefaultTracingObservationHandler},
 * {@code PropagatingSenderTracingObservationHandler} and
 * {@code PropagatingReceiverTracingObservationHandler} over a bridge's tracer and propagator).
 * With a no-op registry nothing is observed and nothing is stored with the jobs.
 */
public final class BullpenTracing implements Instrumentation {

    /**
     * How a {@code process} observation relates to the {@code send} that added its job. Either way
     * a job scheduler's iterations are linked to the upsert's context, never its children: they run
     * long after it, and a parent would put every run of the schedule into one trace (and under its
     * sampling decision).
     */
    public enum ProcessParent {
        /**
         * The attempt is a child of the producer's context stored with the job (the default): one
         * trace from the add to every attempt, with Micrometer's standard propagating receiver
         * handler (OpenTelemetry's conventions allow this for an operation on a single message).
         */
        PRODUCER,
        /**
         * The attempt starts a trace of its own and the producer's headers are left to a handler
         * that links to them ({@link BullpenProcessContext#producerHeaders()}): what the conventions
         * recommend when the consumer runs long after the producer (delayed jobs, retries, jobs added
         * by long-running traces). Micrometer's standard handlers make no links.
         */
        LINK
    }

    private final ObservationRegistry registry;
    private final ProcessParent processParent;
    private final ObservationConvention<BullpenSendContext> sendConvention;
    private final ObservationConvention<BullpenProcessContext> processConvention;

    private BullpenTracing(Builder b) {
        this.registry = b.registry;
        this.processParent = b.processParent;
        this.sendConvention = b.sendConvention;
        this.processConvention = b.processConvention;
    }

    /**
     * @param registry where the observations go
     * @return a builder
     */
    public static Builder builder(ObservationRegistry registry) {
        return new Builder(registry);
    }

    /** @return how {@code process} observations relate to their job's {@code send} */
    public ProcessParent processParent() {
        return processParent;
    }

    @Override
    public Adding addStarting(String queue, String jobName, int jobCount, boolean bulk, Map<String, String> headers) {
        if (registry.isNoop()) {
            return Adding.NONE;
        }
        BullpenSendContext context = new BullpenSendContext(headers, queue, jobName, jobCount, bulk);
        Observation observation = Observation.createNotStarted(sendConvention, BullpenTracingConvention.Send.INSTANCE,
                () -> context, registry).start();
        return (jobIds, error) -> {
            if (error != null) {
                observation.error(unwrap(error));
            } else if (!bulk && jobIds.size() == 1) {
                context.jobId(jobIds.get(0));
            }
            observation.stop();
        };
    }

    @Override
    public Processing processStarting(String queue, Job<?> job, Map<String, String> headers) {
        if (registry.isNoop()) {
            return Processing.NONE;
        }
        // A scheduler's iteration links to its upsert (see ProcessParent), never parents on it.
        boolean parented = processParent == ProcessParent.PRODUCER && job.schedulerId().isEmpty();
        BullpenProcessContext context = new BullpenProcessContext(headers, parented, queue, job);
        Observation observation = Observation.createNotStarted(processConvention,
                BullpenTracingConvention.Process.INSTANCE, () -> context, registry).start();
        Observation.Scope scope = observation.openScope();
        return error -> {
            // A RateLimitedException puts the job back unused: not a failure of the attempt.
            if (error != null && !(error instanceof RateLimitedException)) {
                observation.error(error);
            }
            scope.close();
            observation.stop();
        };
    }

    private static Throwable unwrap(Throwable error) {
        Throwable e = error;
        while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }

    /** Builds a {@link BullpenTracing}. */
    public static final class Builder {
        private final ObservationRegistry registry;
        private ProcessParent processParent = ProcessParent.PRODUCER;
        private ObservationConvention<BullpenSendContext> sendConvention;
        private ObservationConvention<BullpenProcessContext> processConvention;

        private Builder(ObservationRegistry registry) {
            this.registry = Objects.requireNonNull(registry, "registry");
        }

        /**
         * @param parent how {@code process} observations relate to their job's {@code send}
         *     (default {@link ProcessParent#PRODUCER})
         * @return this builder
         */
        public Builder processParent(ProcessParent parent) {
            this.processParent = Objects.requireNonNull(parent, "processParent");
            return this;
        }

        /**
         * @param convention replaces the default {@link BullpenTracingConvention.Send} (null: the
         *     default, or a global convention registered on the registry)
         * @return this builder
         */
        public Builder sendConvention(ObservationConvention<BullpenSendContext> convention) {
            this.sendConvention = convention;
            return this;
        }

        /**
         * @param convention replaces the default {@link BullpenTracingConvention.Process} (null: the
         *     default, or a global convention registered on the registry)
         * @return this builder
         */
        public Builder processConvention(ObservationConvention<BullpenProcessContext> convention) {
            this.processConvention = convention;
            return this;
        }

        /** @return the instrumentation, for {@code Bullpen.Builder}, {@code Queue.Builder} and {@code Worker.Builder} */
        public BullpenTracing build() {
            return new BullpenTracing(this);
        }
    }

    @Override
    public String toString() {
        return "BullpenTracing[" + processParent + "]";
    }
}
