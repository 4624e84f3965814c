package io.bullpen.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.internal.ScriptTypes.AddOutcome;
import io.bullpen.internal.ScriptTypes.AddResult;
import io.bullpen.internal.ScriptTypes.NewJob;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The lane's logic about calls and threads, with a sender whose calls the test answers by hand. */
class AddLaneTest {

    /** Records each call; the test completes them. */
    static final class HeldSender implements AddLane.Sender {
        final List<List<NewJob>> calls = new CopyOnWriteArrayList<>();
        final List<CompletableFuture<List<AddOutcome>>> replies = new CopyOnWriteArrayList<>();

        @Override
        public long now() {
            return 42;
        }

        @Override
        public CompletionStage<List<AddOutcome>> send(long now, List<NewJob> jobs, List<String> traceContexts) {
            calls.add(List.copyOf(jobs));
            CompletableFuture<List<AddOutcome>> reply = new CompletableFuture<>();
            replies.add(reply);
            return reply;
        }

        /** Answers call i: every job added under its name as id. */
        void answer(int i) {
            List<AddOutcome> out = new ArrayList<>();
            for (NewJob j : calls.get(i)) {
                out.add(new AddOutcome(new AddResult(j.name(), true), null));
            }
            replies.get(i).complete(out);
        }
    }

    private static NewJob job(String name) {
        return new NewJob(null, name, "{}", "", 0, 0, false);
    }

    @Test
    void aLoneAddIsSentAtOnceInACallOfItsOwn() throws Exception {
        HeldSender sender = new HeldSender();
        AddLane lane = new AddLane();

        CompletableFuture<AddLane.Added> result = lane.add(job("a"), null, sender);

        // Sent before add returned: no timer, no waiting for company.
        assertThat(sender.calls).containsExactly(List.of(job("a")));
        sender.answer(0);
        assertThat(result.get().outcome().result()).isEqualTo(new AddResult("a", true));
        assertThat(result.get().now()).isEqualTo(42);
    }

    @Test
    void addsThatArriveWhileACallIsInFlightGoInTheNextCallInArrivalOrder() throws Exception {
        HeldSender sender = new HeldSender();
        AddLane lane = new AddLane();
        CompletableFuture<AddLane.Added> first = lane.add(job("a"), null, sender);
        List<CompletableFuture<AddLane.Added>> later = new ArrayList<>();
        for (String name : List.of("b", "c", "d")) {
            later.add(lane.add(job(name), null, sender));
        }
        assertThat(sender.calls).hasSize(1);

        sender.answer(0);

        assertThat(first.get().outcome().result().id()).isEqualTo("a");
        assertThat(sender.calls).hasSize(2);
        assertThat(sender.calls.get(1)).containsExactly(job("b"), job("c"), job("d"));
        assertThat(later).noneMatch(CompletableFuture::isDone);
        sender.answer(1);
        for (int i = 0; i < 3; i++) {
            assertThat(later.get(i).get().outcome().result().id()).isEqualTo(List.of("b", "c", "d").get(i));
        }
    }

    /** Adds one job from a thread of its own, as another producer would. */
    private static CompletableFuture<AddLane.Added> addFromAnotherThread(AddLane lane, String name, AddLane.Sender sender)
            throws InterruptedException {
        List<CompletableFuture<AddLane.Added>> result = new ArrayList<>();
        Thread t = new Thread(() -> result.add(lane.add(job(name), null, sender)));
        t.start();
        t.join();
        return result.get(0);
    }

    @Test
    void anotherThreadsAddGoesInASecondCallWhileTheFirstIsInFlightButNoThirdCallOverlaps() throws Exception {
        HeldSender sender = new HeldSender();
        AddLane lane = new AddLane();
        lane.add(job("a"), null, sender);

        CompletableFuture<AddLane.Added> b = addFromAnotherThread(lane, "b", sender);
        assertThat(sender.calls).containsExactly(List.of(job("a")), List.of(job("b")));

        CompletableFuture<AddLane.Added> c = addFromAnotherThread(lane, "c", sender);
        CompletableFuture<AddLane.Added> d = addFromAnotherThread(lane, "d", sender);
        assertThat(sender.calls).hasSize(AddLane.MAX_IN_FLIGHT);

        sender.answer(1);
        assertThat(b.get().outcome().result().id()).isEqualTo("b");
        assertThat(sender.calls.get(2)).containsExactly(job("c"), job("d"));
        assertThat(c).isNotDone();
        sender.answer(2);
        assertThat(d.get().outcome().result().id()).isEqualTo("d");
    }

    @Test
    void aThreadsNextAddWaitsForItsAddInFlightAndTheAddsBehindItWaitToo() throws Exception {
        HeldSender sender = new HeldSender();
        AddLane lane = new AddLane();
        CompletableFuture<AddLane.Added> a1 = lane.add(job("a1"), null, sender);
        CompletableFuture<AddLane.Added> a2 = lane.add(job("a2"), null, sender);   // same thread: must run after a1
        CompletableFuture<AddLane.Added> b = addFromAnotherThread(lane, "b", sender);

        // Only a1 is in flight: a2 waits for it, and b (behind a2) keeps the queue's order.
        assertThat(sender.calls).containsExactly(List.of(job("a1")));

        sender.answer(0);
        assertThat(a1.get().outcome().result().id()).isEqualTo("a1");
        assertThat(sender.calls.get(1)).containsExactly(job("a2"), job("b"));
        sender.answer(1);
        assertThat(a2.get().outcome().result().id()).isEqualTo("a2");
        assertThat(b.get().outcome().result().id()).isEqualTo("b");
    }

    @Test
    void aCallCarriesAtMostOneHundredJobsOrOneMebibyte() {
        HeldSender sender = new HeldSender();
        AddLane lane = new AddLane();
        lane.add(job("first"), null, sender);
        for (int i = 0; i < 150; i++) {
            lane.add(job("j" + i), null, sender);
        }
        String big = "\"" + "x".repeat(400_000) + "\"";
        for (int i = 0; i < 3; i++) {
            lane.add(new NewJob(null, "big" + i, big, "", 0, 0, false), null, sender);
        }

        sender.answer(0);
        assertThat(sender.calls.get(1)).hasSize(AddLane.MAX_JOBS);
        sender.answer(1);
        // 50 small jobs and two of the 400 KB ones fit in 1 MiB; the third goes next.
        assertThat(sender.calls.get(2)).hasSize(52);
        sender.answer(2);
        assertThat(sender.calls.get(3)).extracting(NewJob::name).containsExactly("big2");
    }

    @Test
    void aFailedCallFailsEachOfItsAddsAndTheLaneGoesOn() {
        HeldSender sender = new HeldSender();
        AddLane lane = new AddLane();
        lane.add(job("a"), null, sender);
        CompletableFuture<AddLane.Added> b = lane.add(job("b"), null, sender);
        CompletableFuture<AddLane.Added> c = lane.add(job("c"), null, sender);
        sender.answer(0);

        RuntimeException down = new RuntimeException("connection refused");
        sender.replies.get(1).completeExceptionally(down);

        for (CompletableFuture<AddLane.Added> f : List.of(b, c)) {
            assertThat(f).failsWithin(Duration.ZERO).withThrowableOfType(ExecutionException.class).havingCause().isSameAs(down);
        }
        CompletableFuture<AddLane.Added> d = lane.add(job("d"), null, sender);
        assertThat(sender.calls).hasSize(3);
        sender.answer(2);
        assertThat(d).isCompleted();
    }

    @Test
    void aSenderThatThrowsFailsTheCallersAddAndFreesTheLane() {
        AtomicLong calls = new AtomicLong();
        AddLane.Sender throwing = new AddLane.Sender() {
            @Override
            public long now() {
                return 1;
            }

            @Override
            public CompletionStage<List<AddOutcome>> send(long now, List<NewJob> jobs, List<String> traceContexts) {
                calls.incrementAndGet();
                throw new IllegalStateException("script missing");
            }
        };
        AddLane lane = new AddLane();

        assertThat(lane.add(job("a"), null, throwing)).isCompletedExceptionally();
        assertThat(lane.add(job("b"), null, throwing)).isCompletedExceptionally();
        assertThat(calls).hasValue(2);
    }

    @Test
    void concurrentAddersEachGetTheirOwnAnswerAndOneThreadsAddsKeepTheirOrder() throws Exception {
        // A sender that answers on another thread after a short while, like Redis.
        List<List<NewJob>> calls = new CopyOnWriteArrayList<>();
        AddLane.Sender redisLike = new AddLane.Sender() {
            @Override
            public long now() {
                return 7;
            }

            @Override
            public CompletionStage<List<AddOutcome>> send(long now, List<NewJob> jobs, List<String> traceContexts) {
                calls.add(List.copyOf(jobs));
                return CompletableFuture.supplyAsync(() -> {
                    List<AddOutcome> out = new ArrayList<>();
                    for (NewJob j : jobs) {
                        out.add(new AddOutcome(new AddResult(j.name(), true), null));
                    }
                    return out;
                }, CompletableFuture.delayedExecutor(1, java.util.concurrent.TimeUnit.MILLISECONDS, Completions.executor()));
            }
        };
        AddLane lane = new AddLane();
        int threads = 8;
        int perThread = 200;
        List<Thread> started = new ArrayList<>();
        List<Throwable> errors = new CopyOnWriteArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            Thread th = new Thread(() -> {
                try {
                    for (int i = 0; i < perThread; i++) {
                        String name = thread + ":" + i;
                        assertThat(lane.add(job(name), null, redisLike).get().outcome().result().id()).isEqualTo(name);
                    }
                } catch (Throwable e) {
                    errors.add(e);
                }
            });
            th.start();
            started.add(th);
        }
        for (Thread th : started) {
            th.join(60_000);
        }
        assertThat(errors).isEmpty();
        List<String> sent = calls.stream().flatMap(List::stream).map(NewJob::name).toList();
        assertThat(sent).hasSize(threads * perThread).doesNotHaveDuplicates();
        for (int t = 0; t < threads; t++) {
            String prefix = t + ":";
            assertThat(sent.stream().filter(n -> n.startsWith(prefix)).map(n -> Integer.parseInt(n.substring(prefix.length()))).toList())
                    .isSorted();
        }
        // Threads that met in the lane shared calls.
        assertThat(calls.size()).isLessThan(threads * perThread);
    }
}
