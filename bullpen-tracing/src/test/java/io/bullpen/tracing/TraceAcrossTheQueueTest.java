package io.bullpen.tracing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.Queue;
import io.bullpen.flow.FlowJob;
import io.bullpen.flow.FlowProducer;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.worker.Worker;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler.FirstMatchingCompositeObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingReceiverTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingSenderTracingObservationHandler;
import io.micrometer.tracing.propagation.Propagator;
import io.micrometer.tracing.test.simple.SimpleSpan;
import io.micrometer.tracing.test.simple.SimpleTracer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A real tracer (Micrometer Tracing's {@link SimpleTracer} with its standard propagating
 * handlers, over a minimal W3C propagator): the trace id crosses Redis from the producer's span
 * to the attempt, and the processor's own spans are the attempt's children.
 */
@BullpenTest
class TraceAcrossTheQueueTest {

    /** W3C {@code traceparent} only: what OpenTelemetry's or Brave's propagator does, in five lines. */
    private static final class W3cPropagator implements Propagator {
        private final SimpleTracer tracer;

        W3cPropagator(SimpleTracer tracer) {
            this.tracer = tracer;
        }

        @Override
        public List<String> fields() {
            return List.of("traceparent");
        }

        @Override
        public <C> void inject(TraceContext context, C carrier, Setter<C> setter) {
            setter.set(carrier, "traceparent", "00-" + context.traceId() + "-" + context.spanId() + "-01");
        }

        @Override
        public <C> Span.Builder extract(C carrier, Getter<C> getter) {
            String header = getter.get(carrier, "traceparent");
            if (header == null) {
                return tracer.spanBuilder().setNoParent();
            }
            String[] parts = header.split("-");
            return tracer.spanBuilder().setParent(tracer.traceContextBuilder().traceId(parts[1]).spanId(parts[2])
                    .sampled(true).build());
        }
    }

    @Test
    void theTraceIdCrossesRedisFromTheSendSpanToTheProcessSpan(BullpenTestContext ctx) {
        SimpleTracer tracer = new SimpleTracer();
        W3cPropagator propagator = new W3cPropagator(tracer);
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new FirstMatchingCompositeObservationHandler(
                new PropagatingSenderTracingObservationHandler<>(tracer, propagator),
                new PropagatingReceiverTracingObservationHandler<>(tracer, propagator),
                new DefaultTracingObservationHandler(tracer)));
        BullpenTracing tracing = BullpenTracing.builder(registry).build();
        Queue<String> queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).instrumentation(tracing).build();

        Observation request = Observation.start("http.request", registry);
        String jobId;
        try (Observation.Scope ignored = request.openScope()) {
            jobId = queue.add("mail", "hello").id();
        }
        request.stop();

        AtomicReference<String> seenTraceId = new AtomicReference<>();
        Worker<String, String> worker = Worker.builder(ctx.redisson(), queue.name(), String.class)
                .instrumentation(tracing)
                .processor(c -> {
                    Observation.createNotStarted("inner.work", registry).observe(() -> { });
                    seenTraceId.set(tracer.currentSpan().context().traceId());
                    return "ok";
                }).build();
        try (worker) {
            worker.start();
            await().atMost(Duration.ofSeconds(15)).until(() -> spanNamed(tracer, "process " + queue.name()) != null);
        }

        SimpleSpan http = spanNamed(tracer, "http.request");
        SimpleSpan send = spanNamed(tracer, "send " + queue.name());
        SimpleSpan process = spanNamed(tracer, "process " + queue.name());
        SimpleSpan inner = spanNamed(tracer, "inner.work");
        assertThat(send.getTraceId()).isEqualTo(http.getTraceId());
        assertThat(send.getParentId()).isEqualTo(http.getSpanId());
        assertThat(send.getKind()).isEqualTo(Span.Kind.PRODUCER);
        assertThat(process.getTraceId()).isEqualTo(send.getTraceId());
        assertThat(process.getParentId()).isEqualTo(send.getSpanId());
        assertThat(process.getKind()).isEqualTo(Span.Kind.CONSUMER);
        assertThat(inner.getParentId()).isEqualTo(process.getSpanId());
        assertThat(seenTraceId.get()).isEqualTo(send.getTraceId());
        Map<String, String> sendTags = send.getTags();
        assertThat(sendTags).containsEntry("messaging.system", "bullpen")
                .containsEntry("messaging.destination.name", queue.name())
                .containsEntry("messaging.operation.type", "send")
                .containsEntry("messaging.message.id", jobId);
        assertThat(process.getTags()).containsEntry("messaging.operation.type", "process")
                .containsEntry("messaging.message.id", jobId);
        // Sample spans in the test output, to compare with docs/metrics-and-tracing.md.
        org.slf4j.LoggerFactory.getLogger(TraceAcrossTheQueueTest.class).info("sample spans:\n{}\n{}",
                describe(send), describe(process));
    }

    @Test
    void aFlowAddIsOneSendSpanThatEveryJobOfTheFlowIsProcessedUnder(BullpenTestContext ctx) {
        SimpleTracer tracer = new SimpleTracer();
        W3cPropagator propagator = new W3cPropagator(tracer);
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new FirstMatchingCompositeObservationHandler(
                new PropagatingSenderTracingObservationHandler<>(tracer, propagator),
                new PropagatingReceiverTracingObservationHandler<>(tracer, propagator),
                new DefaultTracingObservationHandler(tracer)));
        BullpenTracing tracing = BullpenTracing.builder(registry).build();
        String reports = ctx.newQueueName();
        String pages = ctx.newQueueName();
        FlowProducer flows = FlowProducer.builder(ctx.redisson()).instrumentation(tracing).build();

        Observation request = Observation.start("http.request", registry);
        try (Observation.Scope ignored = request.openScope()) {
            flows.add(FlowJob.builder(reports, "assemble", "report")
                    .child(FlowJob.builder(pages, "render", "page").build()).build());
        }
        request.stop();

        Worker<String, String> pageWorker = Worker.builder(ctx.redisson(), pages, String.class)
                .instrumentation(tracing).processor(c -> "html").build();
        Worker<String, String> reportWorker = Worker.builder(ctx.redisson(), reports, String.class)
                .instrumentation(tracing).processor(c -> "assembled").build();
        try (pageWorker; reportWorker) {
            pageWorker.start();
            reportWorker.start();
            await().atMost(Duration.ofSeconds(15)).until(() -> spanNamed(tracer, "process " + reports) != null);
        }

        SimpleSpan http = spanNamed(tracer, "http.request");
        SimpleSpan send = spanNamed(tracer, "send " + reports);
        SimpleSpan child = spanNamed(tracer, "process " + pages);
        SimpleSpan parent = spanNamed(tracer, "process " + reports);
        assertThat(tracer.getSpans()).filteredOn(s -> s.getName().startsWith("send ")).hasSize(1);
        assertThat(send.getParentId()).isEqualTo(http.getSpanId());
        assertThat(child.getTraceId()).isEqualTo(send.getTraceId());
        assertThat(child.getParentId()).isEqualTo(send.getSpanId());
        assertThat(parent.getTraceId()).isEqualTo(send.getTraceId());
        assertThat(parent.getParentId()).isEqualTo(send.getSpanId());
    }

    @Test
    void childrenAddedAtRuntimeAreProcessedUnderASendSpanOfTheParentsAttempt(BullpenTestContext ctx) {
        SimpleTracer tracer = new SimpleTracer();
        W3cPropagator propagator = new W3cPropagator(tracer);
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new FirstMatchingCompositeObservationHandler(
                new PropagatingSenderTracingObservationHandler<>(tracer, propagator),
                new PropagatingReceiverTracingObservationHandler<>(tracer, propagator),
                new DefaultTracingObservationHandler(tracer)));
        BullpenTracing tracing = BullpenTracing.builder(registry).build();
        String reports = ctx.newQueueName();
        String pages = ctx.newQueueName();
        Queue<String> reportQueue = Queue.builder(ctx.redisson(), reports, String.class).instrumentation(tracing).build();

        Observation request = Observation.start("http.request", registry);
        try (Observation.Scope ignored = request.openScope()) {
            reportQueue.add("assemble", "report");
        }
        request.stop();

        Worker<String, String> reportWorker = Worker.builder(ctx.redisson(), reports, String.class)
                .instrumentation(tracing).processor(c -> {
                    if (c.childrenCount() == 0) {
                        c.addChildren(FlowJob.builder(pages, "render", "page").build());
                        c.waitForChildren();
                    }
                    return "assembled";
                }).build();
        Worker<String, String> pageWorker = Worker.builder(ctx.redisson(), pages, String.class)
                .instrumentation(tracing).processor(c -> "html").build();
        try (pageWorker; reportWorker) {
            pageWorker.start();
            reportWorker.start();
            await().atMost(Duration.ofSeconds(15)).until(() -> tracer.getSpans().stream()
                    .filter(s -> ("process " + reports).equals(s.getName())).count() == 2);
        }

        SimpleSpan http = spanNamed(tracer, "http.request");
        SimpleSpan firstAttempt = spanNamed(tracer, "process " + reports);
        SimpleSpan childrenSend = spanNamed(tracer, "send " + pages);
        SimpleSpan child = spanNamed(tracer, "process " + pages);
        assertThat(childrenSend).as("the runtime children's add").isNotNull();
        assertThat(firstAttempt.getTraceId()).isEqualTo(http.getTraceId());
        assertThat(childrenSend.getTraceId()).isEqualTo(http.getTraceId());
        assertThat(childrenSend.getParentId()).as("sent within the attempt that added them")
                .isEqualTo(firstAttempt.getSpanId());
        assertThat(childrenSend.getKind()).isEqualTo(Span.Kind.PRODUCER);
        assertThat(child.getTraceId()).isEqualTo(http.getTraceId());
        assertThat(child.getParentId()).isEqualTo(childrenSend.getSpanId());
    }

    private static String describe(SimpleSpan s) {
        return s.getName() + " kind=" + s.getKind() + " trace=" + s.getTraceId() + " span=" + s.getSpanId()
                + " parent=" + s.getParentId() + " tags=" + new java.util.TreeMap<>(s.getTags());
    }

    private static SimpleSpan spanNamed(SimpleTracer tracer, String name) {
        return tracer.getSpans().stream().filter(s -> name.equals(s.getName())).findFirst().orElse(null);
    }
}
