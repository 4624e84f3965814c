package io.bullpen.tracing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.Job;
import io.bullpen.JobOptions;
import io.bullpen.JobSpec;
import io.bullpen.JobTemplate;
import io.bullpen.Queue;
import io.bullpen.Repeat;
import io.bullpen.internal.WireFormat;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.worker.Worker;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import io.micrometer.observation.transport.SenderContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The observations of real adds and attempts on a real Redis, with Micrometer's test registry and
 * a handler that injects a fixed {@code traceparent} (what a tracing bridge's propagating sender
 * handler does).
 */
@BullpenTest
class BullpenTracingTest {
    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final String TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

    private BullpenTestContext ctx;
    private final TestObservationRegistry registry = TestObservationRegistry.create();
    /** Stopped observations' contexts, in the order they stopped. */
    private final ConcurrentLinkedQueue<Observation.Context> stopped = new ConcurrentLinkedQueue<>();
    private final List<Worker<?, ?>> workers = new ArrayList<>();

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        this.ctx = ctx;
        registry.observationConfig().observationHandler(new ObservationHandler<>() {
            @Override
            public void onStart(Observation.Context context) {
                if (context instanceof SenderContext<?> sender) {
                    inject(sender);
                }
            }

            @Override
            public void onStop(Observation.Context context) {
                stopped.add(context);
            }

            @Override
            public boolean supportsContext(Observation.Context context) {
                return true;
            }
        });
    }

    @SuppressWarnings("unchecked")
    private static <C> void inject(SenderContext<C> sender) {
        sender.getSetter().set(sender.getCarrier(), "traceparent", TRACEPARENT);
    }

    @AfterEach
    void tearDown() {
        workers.forEach(Worker::close);
    }

    private Queue<String> queue(ObservationRegistry r) {
        return Queue.builder(ctx.redisson(), ctx.queueName(), String.class)
                .instrumentation(BullpenTracing.builder(r).build()).build();
    }

    private List<Observation.Context> named(String name) {
        return stopped.stream().filter(c -> name.equals(c.getName())).toList();
    }

    private static String low(Observation.Context c, String key) {
        return c.getLowCardinalityKeyValue(key) == null ? null : c.getLowCardinalityKeyValue(key).getValue();
    }

    private static String high(Observation.Context c, String key) {
        return c.getHighCardinalityKeyValue(key) == null ? null : c.getHighCardinalityKeyValue(key).getValue();
    }

    @Test
    void anAddIsOneSendObservationWithTheMessagingAttributesAndTheJobStoresItsTraceContext() {
        Queue<String> queue = queue(registry);
        Job<String> job = queue.add("mail", "hello");

        TestObservationRegistryAssert.assertThat(registry).hasNumberOfObservationsWithNameEqualTo("bullpen.send", 1)
                .hasObservationWithNameEqualTo("bullpen.send").that()
                .hasContextualNameEqualTo("send " + queue.name())
                .hasLowCardinalityKeyValue("messaging.system", "bullpen")
                .hasLowCardinalityKeyValue("messaging.destination.name", queue.name())
                .hasLowCardinalityKeyValue("messaging.operation.type", "send")
                .hasHighCardinalityKeyValue("messaging.message.id", job.id())
                .doesNotHaveLowCardinalityKeyValueWithKey("messaging.message.id")
                .doesNotHaveHighCardinalityKeyValueWithKey("error.type");
        assertThat(named("bullpen.send")).as("stopped before add returned").hasSize(1);
        String stored = WireFormat.fields(queue.getJob(job.id()).orElseThrow()).get("tc");
        assertThat(stored).as("a lone traceparent is stored as its value").isEqualTo(TRACEPARENT);
        assertThat(WireFormat.fields(job).get("tc")).as("the job the add returns").isEqualTo(stored);
    }

    @Test
    void aBulkAddIsOneSendObservationWithTheBatchCountAndEveryJobCarriesTheContext() {
        Queue<String> queue = queue(registry);
        List<Job<String>> jobs = queue.addBulk(List.of(JobSpec.of("a", "1"), JobSpec.of("b", "2"), JobSpec.of("c", "3")));

        List<Observation.Context> sends = named("bullpen.send");
        assertThat(sends).hasSize(1);
        assertThat(high(sends.get(0), "messaging.batch.message_count")).isEqualTo("3");
        assertThat(high(sends.get(0), "messaging.message.id")).isNull();
        for (Job<String> job : jobs) {
            assertThat(WireFormat.fields(queue.getJob(job.id()).orElseThrow()).get("tc")).contains(TRACEPARENT);
        }
    }

    @Test
    void everyAttemptIsAProcessObservationCurrentInTheProcessorWithTheJobsContextAndErrorTypeOnFailure() {
        Queue<String> queue = queue(registry);
        Job<String> job = queue.add("flaky", "x", JobOptions.builder().attempts(2).build());
        AtomicInteger calls = new AtomicInteger();
        AtomicReference<Observation> current = new AtomicReference<>();
        Worker<String, String> worker = Worker.builder(ctx.redisson(), queue.name(), String.class)
                .instrumentation(BullpenTracing.builder(registry).build())
                .processor(c -> {
                    current.set(registry.getCurrentObservation());
                    if (calls.incrementAndGet() == 1) {
                        throw new IllegalStateException("first attempt fails");
                    }
                    return "ok";
                }).build();
        workers.add(worker);
        worker.start();

        await().atMost(WAIT).until(() -> named("bullpen.process").size() == 2);
        List<Observation.Context> attempts = named("bullpen.process");
        for (Observation.Context attempt : attempts) {
            assertThat(attempt.getContextualName()).isEqualTo("process " + queue.name());
            assertThat(low(attempt, "messaging.system")).isEqualTo("bullpen");
            assertThat(low(attempt, "messaging.destination.name")).isEqualTo(queue.name());
            assertThat(low(attempt, "messaging.operation.type")).isEqualTo("process");
            assertThat(high(attempt, "messaging.message.id")).isEqualTo(job.id());
            BullpenProcessContext process = (BullpenProcessContext) attempt;
            assertThat(process.getCarrier()).containsEntry("traceparent", TRACEPARENT);
            assertThat(process.getGetter().get(process.getCarrier(), "traceparent")).isEqualTo(TRACEPARENT);
        }
        assertThat(high(attempts.get(0), "error.type")).isEqualTo(IllegalStateException.class.getName());
        assertThat(attempts.get(0).getError()).hasMessage("first attempt fails");
        assertThat(high(attempts.get(1), "error.type")).isNull();
        assertThat(current.get()).isNotNull();
        assertThat(current.get().getContextView()).isSameAs(attempts.get(1));
    }

    @Test
    void inLinkModeTheProducersHeadersAreKeptButNotOfferedForParenting() {
        Queue<String> queue = queue(registry);
        queue.add("linked", "x");
        Worker<String, String> worker = Worker.builder(ctx.redisson(), queue.name(), String.class)
                .instrumentation(BullpenTracing.builder(registry).processParent(BullpenTracing.ProcessParent.LINK).build())
                .processor(c -> "ok").build();
        workers.add(worker);
        worker.start();

        await().atMost(WAIT).until(() -> named("bullpen.process").size() == 1);
        BullpenProcessContext process = (BullpenProcessContext) named("bullpen.process").get(0);
        assertThat(process.producerHeaders()).containsEntry("traceparent", TRACEPARENT);
        assertThat(process.getGetter().get(process.getCarrier(), "traceparent")).isNull();
    }

    @Test
    void aSchedulersIterationsCarryTheUpsertsContextAsALinkNotAParentWithTheSchedulerId() {
        Queue<String> queue = queue(registry);
        queue.upsertJobScheduler("tick", Repeat.every(Duration.ofSeconds(1)), JobTemplate.of("tick", "x"));
        List<Observation.Context> sends = named("bullpen.send");
        assertThat(sends).as("the upsert is one send").hasSize(1);
        String first = queue.getJobSchedulers().get(0).pendingJobId().orElseThrow();
        assertThat(high(sends.get(0), "messaging.message.id")).isEqualTo(first);

        Worker<String, String> worker = Worker.builder(ctx.redisson(), queue.name(), String.class)
                .instrumentation(BullpenTracing.builder(registry).build())
                .processor(c -> "ok").build();
        workers.add(worker);
        worker.start();

        // The second iteration is made by the worker's take of the first, from the scheduler.
        await().atMost(WAIT).until(() -> named("bullpen.process").size() >= 2);
        for (Observation.Context attempt : named("bullpen.process").subList(0, 2)) {
            BullpenProcessContext process = (BullpenProcessContext) attempt;
            assertThat(process.producerHeaders()).containsEntry("traceparent", TRACEPARENT);
            assertThat(process.getGetter().get(process.getCarrier(), "traceparent")).as("linked, not parented").isNull();
            assertThat(high(attempt, "bullpen.scheduler.id")).isEqualTo("tick");
        }
        assertThat(high(named("bullpen.process").get(0), "messaging.message.id")).isEqualTo(first);
    }

    @Test
    void withoutTracingOrWithANoopRegistryNothingIsStoredWithTheJob() {
        Queue<String> plain = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
        Job<String> a = plain.add("plain", "x");
        Job<String> b = queue(ObservationRegistry.NOOP).add("noop", "y");
        Job<String> c = Queue.builder(ctx.redisson(), ctx.queueName(), String.class)
                .instrumentation(BullpenTracing.builder(TestObservationRegistry.create()).build()).build().add("no-handler", "z");

        for (Job<String> job : List.of(a, b, c)) {
            Map<String, String> hash = WireFormat.fields(plain.getJob(job.id()).orElseThrow());
            assertThat(hash).as("job %s", job.name()).doesNotContainKey("tc");
        }
        queue(ObservationRegistry.NOOP).upsertJobScheduler("s", Repeat.every(Duration.ofMinutes(1)), JobTemplate.of("s", "x"));
        String pending = plain.getJobSchedulers().get(0).pendingJobId().orElseThrow();
        assertThat(WireFormat.fields(plain.getJob(pending).orElseThrow())).as("an iteration").doesNotContainKey("tc");
    }
}
