package io.bullpen.bench.peer.bullpen;

import io.bullpen.Job;
import io.bullpen.bench.peer.ParentChildRun;
import io.bullpen.flow.FlowJob;
import io.bullpen.flow.FlowProducer;
import io.bullpen.worker.Worker;
import io.bullpen.worker.WorkerListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.redisson.api.RedissonClient;

/**
 * The {@code parent-child} pass with Bullpen's public API: a {@link FlowProducer} adding one flow
 * per call, and two {@link Worker}s (one per queue, or both on the one queue) whose processor
 * returns a child's index, or for a parent reads every child's value ({@code ctx.children()}).
 */
final class BullpenParentChild {
    private static final Duration MAX_WAIT = Duration.ofMinutes(10);

    private BullpenParentChild() {
    }

    static ParentChildRun run(RedissonClient redisson, String parentQueue, String childQueue, int flows, int children,
                              int concurrency) throws Exception {
        FlowProducer producer = FlowProducer.builder(redisson).build();
        AtomicInteger parents = new AtomicInteger();
        AtomicInteger incomplete = new AtomicInteger();
        AtomicLong last = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        WorkerListener<Payload, Object> listener = new WorkerListener<>() {
            @Override
            public void onCompleted(Job<Payload> job, Object result) {
                if (job.name().equals("parent") && parents.incrementAndGet() == flows) {
                    last.set(System.nanoTime());
                    done.countDown();
                }
            }

            @Override
            public void onFailed(Job<Payload> job, Throwable error, boolean finalFailure) {
                failure.compareAndSet(null, new IllegalStateException(job.name() + " " + job.id() + " failed", error));
                done.countDown();
            }
        };
        List<Worker<Payload, Object>> workers = new ArrayList<>();
        for (String queue : List.of(parentQueue, childQueue)) {
            workers.add(Worker.builder(redisson, queue, Payload.class)
                    .<Object>processor(ctx -> {
                        if (!ctx.job().name().equals("parent")) {
                            return (Object) ctx.job().data().n();
                        }
                        int values = 0;
                        for (var child : ctx.children()) {
                            if (child.returnValueJson().isPresent()) {
                                values++;
                            }
                        }
                        if (values != children) {
                            incomplete.incrementAndGet();
                        }
                        return null;
                    })
                    .concurrency(concurrency)
                    .listener(listener)
                    .build());
        }
        long start;
        try {
            workers.forEach(Worker::start);
            start = System.nanoTime();
            for (int i = 0; i < flows; i++) {
                FlowJob.Builder parent = FlowJob.builder(parentQueue, "parent", new Payload(i));
                for (int c = 0; c < children; c++) {
                    parent.child(FlowJob.builder(childQueue, "child", new Payload(c)).build());
                }
                producer.add(parent.build());
            }
            if (!done.await(MAX_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new TimeoutException("completed " + parents.get() + " of " + flows + " parents in " + MAX_WAIT);
            }
        } finally {
            workers.forEach(Worker::close);
        }
        if (failure.get() != null) {
            throw new IllegalStateException("a flow job failed", failure.get());
        }
        if (incomplete.get() > 0) {
            throw new IllegalStateException(incomplete.get() + " parents saw fewer than " + children + " child values");
        }
        return new ParentChildRun((last.get() - start) / 1e9, parents.get());
    }
}
