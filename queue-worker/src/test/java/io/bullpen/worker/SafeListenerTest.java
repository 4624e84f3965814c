package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.Job;
import io.bullpen.Queue;
import io.bullpen.instrument.Instrumentation;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Callbacks nobody implements are not queued: a listener or instrumentation that keeps the
 * interface's no-op default for a callback never wakes the events thread for it, and one that
 * implements it (directly, through a narrower result type, a base class or a proxy) gets it.
 */
@BullpenTest
class SafeListenerTest {
    private Job<Integer> job;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        Queue<Integer> queue = Queue.builder(ctx.redisson(), ctx.queueName(), Integer.class).build();
        job = queue.add("n", 7);
    }

    /** Every per-job callback a worker raises, once each. */
    private void raiseEach(SafeListener<Integer, Object> l) {
        l.active(job);
        l.progress(job, 50);
        l.drained();
        l.stalled(job.id());
        l.lockLost(job);
        l.error(new IllegalStateException("x"));
    }

    @Test
    void aListenerOfCompletionsOnlyQueuesNothingForTheOtherCallbacks() {
        List<String> got = new CopyOnWriteArrayList<>();
        SafeListener<Integer, Object> l = new SafeListener<>(List.of(new WorkerListener<Integer, Object>() {
            @Override
            public void onCompleted(Job<Integer> j, Object result) {
                got.add(j.id() + "=" + result);
            }
        }), "events-test");
        assertThat(SafeListener.implemented(List.of(new WorkerListener<>() {
        }), WorkerListener.class)).isEmpty();

        raiseEach(l);
        l.failed(job, new IllegalStateException("boom"), false);
        assertThat(l.callbacksQueued()).isZero();

        l.completed(job, "done");
        assertThat(l.callbacksQueued()).isEqualTo(1);
        await().atMost(Duration.ofSeconds(5)).until(() -> got.size() == 1);
        assertThat(got).containsExactly(job.id() + "=done");
    }

    @Test
    void aNarrowerResultTypeABaseClassAndAProxyCountAsImplemented() {
        List<String> got = new CopyOnWriteArrayList<>();
        WorkerListener<Integer, String> narrower = new WorkerListener<>() {
            @Override
            public void onCompleted(Job<Integer> j, String result) {
                got.add("narrower " + result);
            }
        };
        class Base implements WorkerListener<Integer, Object> {
            @Override
            public void onActive(Job<Integer> j) {
                got.add("base active");
            }
        }
        WorkerListener<Integer, Object> subclass = new Base() {
        };
        @SuppressWarnings("unchecked")
        WorkerListener<Integer, Object> proxy = (WorkerListener<Integer, Object>) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {WorkerListener.class}, (p, method, args) -> {
                    if (method.getDeclaringClass() == Object.class) {
                        return method.getName().equals("equals") ? p == args[0]
                                : method.getName().equals("hashCode") ? System.identityHashCode(p) : "proxy";
                    }
                    got.add("proxy " + method.getName());
                    return null;
                });

        assertThat(SafeListener.implemented(List.of(narrower), WorkerListener.class)).containsExactly("onCompleted");
        assertThat(SafeListener.implemented(List.of(subclass), WorkerListener.class)).containsExactly("onActive");
        assertThat(SafeListener.implemented(List.of(proxy), WorkerListener.class))
                .contains("onActive", "onProgress", "onCompleted", "onFailed", "onStalled", "onLockLost", "onDrained", "onError");

        SafeListener<Integer, String> l = new SafeListener<>(List.of(narrower), "events-test");
        l.active(job);
        l.drained();
        assertThat(l.callbacksQueued()).isZero();
        l.completed(job, "r");
        await().atMost(Duration.ofSeconds(5)).until(() -> got.contains("narrower r"));

        SafeListener<Integer, Object> both = new SafeListener<>(List.of(subclass, proxy), "events-test");
        both.active(job);
        both.drained();
        await().atMost(Duration.ofSeconds(5)).until(() -> got.containsAll(List.of("base active", "proxy onActive", "proxy onDrained")));
        assertThat(both.callbacksQueued()).isEqualTo(2);
    }

    @Test
    void anInstrumentationThatOnlyWrapsTheProcessorStartsNoEventsThread() {
        Instrumentation tracingLike = new Instrumentation() {
            @Override
            public Processing processStarting(String queue, Job<?> j, Map<String, String> headers) {
                return Processing.NONE;
            }
        };
        List<String> finished = new CopyOnWriteArrayList<>();
        Instrumentation metricsLike = new Instrumentation() {
            @Override
            public void jobFinished(String queue, Job<?> j, Outcome outcome, Duration duration, Throwable error) {
                finished.add(queue + " " + j.id() + " " + outcome);
            }
        };

        SafeListener<Integer, Object> tracing = new SafeListener<>(List.of(), List.of(tracingLike), "q", "events-test");
        raiseEach(tracing);
        tracing.completed(job, "r");
        tracing.workerStarted("w");
        assertThat(tracing.callbacksQueued()).isZero();
        assertThat(tracing.instruments()).containsExactly(tracingLike);

        SafeListener<Integer, Object> metrics = new SafeListener<>(List.of(), List.of(tracingLike, metricsLike), "q", "events-test");
        raiseEach(metrics);
        assertThat(metrics.callbacksQueued()).isZero();
        metrics.completed(job, "r");
        metrics.failed(job, new IllegalStateException("boom"), true);
        assertThat(metrics.callbacksQueued()).isEqualTo(2);
        await().atMost(Duration.ofSeconds(5)).until(() -> finished.size() == 2);
        assertThat(finished).containsExactly("q " + job.id() + " COMPLETED", "q " + job.id() + " FAILED");
    }
}
