package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.Job;
import io.bullpen.JobOptions;
import io.bullpen.JobState;
import io.bullpen.JobTimeoutException;
import io.bullpen.internal.ScriptTypes.FetchArgs;
import io.bullpen.internal.ScriptTypes.Finish;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The worker's threads and timing against a fake {@link WorkerStore}: slots, the take-ahead
 * buffer, timeouts, close and hand-back, lock renewal, cancels, the marker wait and batched
 * finishes. No Redis; waits are Awaitility's, never a sleep. (The store's Redis implementation
 * is the scripts, tested against Redis by their contract tests and the worker's other tests.)
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class WorkerOnFakeStoreTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final FakeWorkerStore store = new FakeWorkerStore();
    private final CountDownLatch release = new CountDownLatch(1);
    private final Set<String> running = ConcurrentHashMap.newKeySet();
    private final AtomicInteger mostAtOnce = new AtomicInteger();
    private final List<String> ran = new CopyOnWriteArrayList<>();
    private Worker<String, Object> worker;

    @AfterEach
    void closeWorker() {
        release.countDown();
        if (worker != null) {
            worker.close(Duration.ofSeconds(5));
        }
    }

    /** A processor that waits for {@link #release} (interruptibly) and counts how many run at once. */
    private Object blocking(JobContext<String> ctx) throws InterruptedException {
        running.add(ctx.job().id());
        mostAtOnce.accumulateAndGet(running.size(), Math::max);
        try {
            release.await();
            ran.add(ctx.job().id());
            return "ok";
        } finally {
            running.remove(ctx.job().id());
        }
    }

    private Worker.Builder<String, Object> builder() {
        return Worker.builder(store, "fake", String.class).blockTimeout(Duration.ofSeconds(5)).takeAhead(0);
    }

    private List<FetchArgs> takes() {
        return store.calls.stream().filter(c -> c.kind().equals("take")).map(c -> (FetchArgs) c.detail()).toList();
    }

    @Test
    void runsNoMoreJobsAtOnceThanItsSlotsAndTheSlotsBalance() {
        for (int i = 0; i < 10; i++) {
            store.add("j" + i);
        }
        worker = builder().<Object>processor(this::blocking).concurrency(3).build().start();

        await().atMost(WAIT).until(() -> running.size() == 3);
        assertThat(worker.activeCount()).isEqualTo(3);
        assertThat(store.readyCount()).isEqualTo(7);
        worker.slots().checkInvariant(false);

        release.countDown();
        await().atMost(WAIT).until(() -> store.finished.size() == 10);
        await().atMost(WAIT).until(() -> worker.activeCount() == 0 && worker.slots().free() == 3);
        worker.slots().checkInvariant(true);
        assertThat(mostAtOnce).hasValueLessThanOrEqualTo(3);
        assertThat(store.finished).allMatch(r -> r.state() == JobState.COMPLETED);
        // A finish takes the slot's next job in the same call: far fewer takes than jobs.
        assertThat(takes().size()).isLessThan(10);
    }

    @Test
    void anIdleWorkerWaitsOnTheMarkerAndStartsAJobOnItsSignal() {
        worker = builder().<Object>processor(ctx -> "ok").build().start();
        await().atMost(WAIT).until(() -> store.marker().popsSent.get() >= 1);
        long takesWhenIdle = store.count("take");
        // Waiting on the marker, it asks the queue nothing (the pop's timeout is 5 s).
        await().during(Duration.ofMillis(300)).atMost(WAIT).until(() -> store.count("take") == takesWhenIdle);

        store.add("j1");

        await().atMost(WAIT).until(() -> store.finished.size() == 1);
        assertThat(store.finished.get(0).state()).isEqualTo(JobState.COMPLETED);
    }

    @Test
    void aPausedWorkerTakesNothingAndHandsASignalBack() {
        worker = builder().<Object>processor(ctx -> "ok").build().start();
        await().atMost(WAIT).until(() -> store.marker().popsSent.get() >= 1);
        worker.pause();
        long takes = store.count("take");

        store.add("j1");

        await().atMost(WAIT).until(() -> store.marker().pendingSignals() == 1 || store.marker().putBacks.get() >= 1);
        assertThat(store.count("take")).isEqualTo(takes);
        worker.resume();
        await().atMost(WAIT).until(() -> store.finished.size() == 1);
    }

    @Test
    void aTimeoutFailsTheAttemptAtOnceAndItsSlotRunsTheNextJob() {
        CountDownLatch stuck = new CountDownLatch(1);
        store.add("slow", JobOptions.builder().timeout(Duration.ofMillis(100)).build());
        store.add("next");
        worker = builder().<Object>processor(ctx -> {
            if (ctx.job().id().equals("slow")) {
                // Ignores the interrupt: the attempt fails anyway and the slot moves on.
                while (true) {
                    try {
                        stuck.await();
                        return "late";
                    } catch (InterruptedException ignored) {
                        // keep running, as a processor that ignores interrupts does
                    }
                }
            }
            return "ok";
        }).concurrency(1).build().start();

        await().atMost(WAIT).until(() -> store.finished.size() == 2);
        FakeWorkerStore.Recorded slow = store.finished.stream().filter(r -> r.jobId().equals("slow")).findFirst()
                .orElseThrow();
        assertThat(slow.state()).isEqualTo(JobState.FAILED);
        assertThat(((Finish.Failed) slow.finish()).reason()).contains("timed out after 100ms");
        assertThat(store.finished).anyMatch(r -> r.jobId().equals("next") && r.state() == JobState.COMPLETED);
        stuck.countDown();
        // The late return of the stuck processor records nothing more.
        await().atMost(WAIT).until(() -> worker.activeCount() == 0);
        assertThat(store.finished).hasSize(2);
    }

    @Test
    void closeWaitsForRunningJobsWithinItsTimeout() throws Exception {
        store.add("j1");
        worker = builder().<Object>processor(this::blocking).build().start();
        await().atMost(WAIT).until(() -> running.contains("j1"));

        Thread closer = new Thread(() -> worker.close(Duration.ofSeconds(10)));
        closer.start();
        release.countDown();
        closer.join();

        assertThat(store.finished).extracting(FakeWorkerStore.Recorded::jobId).containsExactly("j1");
        assertThat(store.handedBack).isEmpty();
        assertThat(store.count("workerLeft")).isEqualTo(1);
        assertThat(store.marker().closed).isTrue();
    }

    @Test
    void closeInterruptsAJobStillRunningAtItsTimeoutAndHandsItBackStarted() {
        AtomicReference<Boolean> interrupted = new AtomicReference<>(false);
        store.add("j1");
        worker = builder().<Object>processor(ctx -> {
            running.add(ctx.job().id());
            try {
                release.await();
                return "ok";
            } catch (InterruptedException e) {
                interrupted.set(true);
                throw e;
            }
        }).build().start();
        await().atMost(WAIT).until(() -> running.contains("j1"));

        worker.close(Duration.ofMillis(50));

        assertThat(store.handedBack).containsExactly("j1");
        assertThat(store.calls).anyMatch(c -> c.kind().equals("handBack") && c.detail().equals("j1 started"));
        await().atMost(WAIT).until(interrupted::get);
        await().atMost(WAIT).until(() -> worker.activeCount() == 0);
        // The interrupted attempt records nothing: the job runs again, no attempt charged.
        assertThat(store.finished).isEmpty();
    }

    @Test
    void bufferedJobsAreRenewedRunOnTheFreedThreadAndHandedBackUnstartedOnClose() {
        store.giveAhead(2);
        for (int i = 0; i < 6; i++) {
            store.add("j" + i);
        }
        worker = builder().<Object>processor(this::blocking).concurrency(1).lockDuration(Duration.ofMillis(200)).build().start();
        await().atMost(WAIT).until(() -> running.contains("j0") && worker.buffered() == 2);

        // Buffered jobs hold leases: the renewal carries their tokens with the running one's.
        await().atMost(WAIT).until(() -> store.calls.stream().anyMatch(c -> c.kind().equals("extendLocks")
                && ((java.util.Map<?, ?>) c.detail()).keySet().containsAll(Set.of("j0", "j1", "j2"))));

        store.giveAhead(0);
        worker.close(Duration.ofMillis(50));

        assertThat(store.handedBack).contains("j1", "j2");
        assertThat(store.calls).anyMatch(c -> c.kind().equals("handBack") && c.detail().equals("j1"));
        assertThat(ran).doesNotContain("j1", "j2");
        assertThat(worker.buffered()).isZero();
    }

    @Test
    void aThreadWhoseJobReturnsStartsTheNextBufferedJobAndItsFinishTakesNoneForTheSlot() {
        store.giveAhead(1);
        store.add("j0");
        store.add("j1");
        CountDownLatch first = new CountDownLatch(1);
        List<String> threads = new CopyOnWriteArrayList<>();
        worker = builder().<Object>processor(ctx -> {
            threads.add(ctx.job().id() + "@" + Thread.currentThread().getName());
            if (ctx.job().id().equals("j0")) {
                first.await();
            }
            return "ok";
        }).concurrency(1).build().start();
        await().atMost(WAIT).until(() -> worker.buffered() == 1);
        store.giveAhead(0);

        first.countDown();

        await().atMost(WAIT).until(() -> store.finished.size() == 2);
        String thread0 = threads.get(0).substring(threads.get(0).indexOf('@'));
        assertThat(threads.get(1)).isEqualTo("j1" + thread0);
        Finish j0 = store.finished.get(0).finish();
        assertThat(j0.jobId()).isEqualTo("j0");
        // j1 was taken ahead: its result carries when its processor started.
        assertThat(store.finished.get(1).startedOn()).isPositive();
    }

    @Test
    void aLostLockCancelsTheAttemptAndItsResultIsRejected() {
        AtomicReference<Boolean> sawCancel = new AtomicReference<>(false);
        CountDownLatch lockLost = new CountDownLatch(1);
        store.add("j1");
        worker = builder().<Object>processor(ctx -> {
            running.add(ctx.job().id());
            try {
                release.await();
            } catch (InterruptedException e) {
                sawCancel.set(ctx.isCancelled());
            }
            return "ok";
        }).listener(new WorkerListener<>() {
            @Override
            public void onLockLost(Job<String> job) {
                lockLost.countDown();
            }
        }).lockDuration(Duration.ofMillis(200)).build().start();
        await().atMost(WAIT).until(() -> running.contains("j1"));

        store.loseLock("j1");

        await().atMost(WAIT).until(() -> lockLost.getCount() == 0);
        await().atMost(WAIT).until(sawCancel::get);
        await().atMost(WAIT).until(() -> worker.activeCount() == 0);
        assertThat(store.finished).isEmpty();
    }

    @Test
    void aProducersCancelReachesTheRunningProcessor() {
        AtomicReference<String> reason = new AtomicReference<>();
        store.add("j1");
        worker = builder().<Object>processor(ctx -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                reason.set(ctx.cancellationReason().orElse(null));
                throw e;
            }
            return "ok";
        }).build().start();
        await().atMost(WAIT).until(() -> worker.activeCount() == 1);

        store.cancelFromProducer("j1", "no longer needed");

        await().atMost(WAIT).until(() -> "no longer needed".equals(reason.get()));
        await().atMost(WAIT).until(() -> store.finished.size() == 1);
        assertThat(store.finished.get(0).state()).isEqualTo(JobState.FAILED);
    }

    @Test
    void resultsThatFinishWhileACallIsUnderWayGoTogetherInTheNextCall() {
        for (int i = 0; i < 8; i++) {
            store.add("j" + i);
        }
        store.holdFinishes();
        worker = builder().<Object>processor(ctx -> "ok").concurrency(8).build().start();
        // Two calls under way at most; the other results queue behind them.
        await().atMost(WAIT).until(() -> store.count("finish") == Finisher.MAX_CALLS);
        await().atMost(WAIT).until(() -> worker.activeCount() == 8);

        store.releaseFinishes();

        await().atMost(WAIT).until(() -> store.finished.size() == 8);
        assertThat(store.finishBatchSizes).anyMatch(n -> n > 1);
        assertThat(store.count("finish")).isLessThan(8);
    }

    @Test
    void aFinishUnderWayWhenTheConnectionDropsIsSentAgainWhenItIsBack() {
        store.add("j1");
        store.holdFinishes();
        worker = builder().<Object>processor(ctx -> "ok").build().start();
        await().atMost(WAIT).until(() -> store.count("finish") == 1);
        InetSocketAddress server = new InetSocketAddress("127.0.0.1", 6379);

        store.marker().events.lost(server);
        store.marker().events.reconnected(server);

        await().atMost(WAIT).until(() -> store.count("finish") >= 2);
        store.releaseFinishes();
        await().atMost(WAIT).until(() -> worker.activeCount() == 0);
        // Whichever reply counts, the job is recorded once (a repeat is answered with its state).
        assertThat(store.finished).extracting(FakeWorkerStore.Recorded::jobId).containsExactly("j1");
    }

    @Test
    void aJobWhoseDataCannotBeReadFailsWithoutRunning() {
        store.addUnreadable("bad");
        worker = builder().<Object>processor(ctx -> {
            ran.add(ctx.job().id());
            return "ok";
        }).build().start();

        await().atMost(WAIT).until(() -> store.finished.size() == 1);
        assertThat(store.finished.get(0).state()).isEqualTo(JobState.FAILED);
        assertThat(store.finished.get(0).finish()).isInstanceOf(Finish.Failed.class);
        assertThat(ran).isEmpty();
        await().atMost(WAIT).until(() -> worker.slots().free() == 1);
    }

    @Test
    void startRegistersAndBeatsAndCloseLeaves() {
        worker = builder().<Object>processor(ctx -> "ok").build().start();
        await().atMost(WAIT).until(() -> store.count("heartbeat") >= 1);
        assertThat(store.count("register")).isEqualTo(1);

        worker.close();

        assertThat(store.count("workerLeft")).isEqualTo(1);
        assertThat(store.marker().handOvers.get()).isEqualTo(1);
    }

    @Test
    void aTakeAheadOfZeroNeverAsksForJobsBeyondTheSlots() {
        for (int i = 0; i < 20; i++) {
            store.add("j" + i);
        }
        worker = builder().<Object>processor(ctx -> "ok").concurrency(2).build().start();
        await().atMost(WAIT).until(() -> store.finished.size() == 20);
        assertThat(takes()).allMatch(a -> a.ahead() == 0);
        assertThat(worker.buffered()).isZero();
    }

    @Test
    void rejectedResultIsNotReportedAsCompleted() {
        AtomicInteger completed = new AtomicInteger();
        store.add("j1");
        store.holdFinishes();
        worker = builder().<Object>processor(ctx -> "ok").listener(new WorkerListener<>() {
            @Override
            public void onCompleted(Job<String> job, Object result) {
                completed.incrementAndGet();
            }
        }).build().start();
        await().atMost(WAIT).until(() -> store.count("finish") == 1);

        store.loseLock("j1");
        store.releaseFinishes();

        await().atMost(WAIT).until(() -> worker.activeCount() == 0);
        assertThat(completed).hasValue(0);
        assertThat(store.finished).isEmpty();
    }

    @Test
    void theTimeoutExceptionCarriesTheProcessorsStack() {
        store.add("slow", JobOptions.builder().timeout(Duration.ofMillis(50)).build());
        worker = builder().<Object>processor(ctx -> {
            release.await();
            return "ok";
        }).build().start();
        await().atMost(WAIT).until(() -> store.finished.size() == 1);
        Finish.Failed f = (Finish.Failed) store.finished.get(0).finish();
        assertThat(f.reason()).contains("timed out");
        assertThat(f.stacktrace()).contains(JobTimeoutException.class.getName()).contains("await");
    }

    @Test
    void anIdleWorkerLooksAtTheQueueWhenALeaseNobodyRenewsExpires() {
        worker = builder().<Object>processor(ctx -> "ok").lockDuration(Duration.ofMillis(400)).build().start();
        await().atMost(WAIT).until(() -> store.marker().popsSent.get() >= 1);

        // A dead worker's job: its lease expires soon, and no signal announces it.
        store.leaseExpiresAt("orphan", System.currentTimeMillis() + 150);

        // The heartbeat reads the expiry and wakes the fetch loop then, well before the pop's 5 s timeout.
        await().atMost(Duration.ofSeconds(3)).until(() -> store.finished.size() == 1);
        assertThat(store.finished.get(0).jobId()).isEqualTo("orphan");
    }

    @Test
    void aJobWhoseStartARateLimitBookedRunsThenAndIsGivenBackUnstartedOnClose() {
        store.add("soon", JobOptions.defaults(), java.util.Map.of(io.bullpen.internal.JobFields.START_IN, "100"));
        store.add("later", JobOptions.defaults(), java.util.Map.of(io.bullpen.internal.JobFields.START_IN, "60000"));
        worker = builder().<Object>processor(ctx -> {
            ran.add(ctx.job().id());
            return "ok";
        }).concurrency(2).build().start();

        await().atMost(WAIT).until(() -> store.finished.size() == 1);
        assertThat(ran).containsExactly("soon");
        // The booked one holds its slot (in flight, lock renewed) until its start.
        assertThat(worker.activeCount()).isEqualTo(1);

        worker.close(Duration.ofSeconds(5));

        assertThat(store.handedBack).containsExactly("later");
        assertThat(store.calls).anyMatch(c -> c.kind().equals("handBack") && c.detail().equals("later"));
        assertThat(ran).containsExactly("soon");
    }
}
