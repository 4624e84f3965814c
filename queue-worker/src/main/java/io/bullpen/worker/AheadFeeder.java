package io.bullpen.worker;

import io.bullpen.internal.ScriptTypes.RawJob;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Take-ahead: moves jobs between the {@link AheadBuffer} and the slots.
 * 1. jobs a fetch or finish took beyond the slots' are buffered ({@link #takenAhead});
 * 2. a free slot and a buffered job are paired at once ({@link #pump}, after a job is buffered and
 *    after a slot frees: each side checks the other after its own change, so neither waits);
 * 3. the fetch loop starts buffered jobs on its free slots before it asks Redis ({@link #startBuffered});
 * 4. on close the buffered jobs go back to their line at once ({@link #handBackBuffered}); a
 *    simulated crash leaves them leased.
 * (The processor thread's own hand-over to the next buffered job is in {@link JobRunner}.)
 */
final class AheadFeeder<T, R> {
    private static final Logger log = LoggerFactory.getLogger(AheadFeeder.class);

    private final Intake intake;
    private final Slots<T> slots;
    private final AheadBuffer buffer;
    private final TakeAhead takeAhead;
    private final WorkerStore store;
    /** Starts a job on a slot the caller holds ({@link JobRunner#start(RawJob, AttemptLife)}). */
    private final BiConsumer<RawJob, AttemptLife> start;
    /** closeAsIfCrashed: buffered jobs stay leased until their locks lapse. */
    private volatile boolean crashed;

    AheadFeeder(Intake intake, Slots<T> slots, AheadBuffer buffer, TakeAhead takeAhead, WorkerStore store,
                BiConsumer<RawJob, AttemptLife> start) {
        this.intake = intake;
        this.slots = slots;
        this.buffer = buffer;
        this.takeAhead = takeAhead;
        this.store = store;
        this.start = start;
    }

    /** Jobs a call took ahead: buffered, or given back at once when the worker closes. */
    void takenAhead(List<RawJob> jobs) {
        for (RawJob raw : jobs) {
            buffer.add(raw);
        }
        if (!intake.running()) {
            handBackBuffered(false);
        } else {
            pump();
        }
    }

    /**
     * Starts up to {@code free} buffered jobs on slots the caller holds (the fetch loop, before it
     * asks Redis for more).
     *
     * @return how many slots it used
     */
    int startBuffered(int free) {
        int used = 0;
        while (used < free && intake.running()) {
            AheadBuffer.Held held = buffer.poll();
            if (held == null) {
                break;
            }
            used++;
            startHeld(held);
        }
        return used;
    }

    /**
     * Pairs free slots with buffered jobs. Called after a job is buffered and after a slot frees:
     * each checks the other's side after its own change, so neither waits for the other.
     */
    void pump() {
        while (intake.running() && !buffer.isEmpty() && slots.tryTakeOne()) {
            AheadBuffer.Held held = buffer.poll();
            if (held == null) {
                slots.release();
                return;
            }
            startHeld(held);
        }
    }

    private void startHeld(AheadBuffer.Held held) {
        held.life().move(AttemptLife.Stage.TAKEN);
        start.accept(held.raw(), held.life());
    }

    /**
     * Close: every buffered job goes back to its line at once, unstarted (moveToWait: no attempt,
     * no stall). A crash ({@code closeAsIfCrashed}) leaves them to lock expiry instead.
     *
     * @param wait wait (up to 5 s) until Redis has them back
     */
    void handBackBuffered(boolean wait) {
        List<AheadBuffer.Held> jobs = buffer.drain();
        if (crashed) {
            return;
        }
        List<CompletableFuture<Void>> calls = new ArrayList<>();
        for (AheadBuffer.Held held : jobs) {
            held.life().move(AttemptLife.Stage.HANDED_BACK);
            RawJob raw = held.raw();
            calls.add(store.handBack(raw.id(), raw.lockToken(), false).toCompletableFuture().whenComplete((ok, error) -> {
                if (error != null) {
                    log.warn("could not give back buffered job {} (it will be recovered when its lock expires): {}",
                            raw.id(), error.toString());
                }
            }));
        }
        if (wait && !calls.isEmpty()) {
            try {
                CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new))
                        .get(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException e) {
                // Logged per job above.
            }
        }
    }

    /** The oldest buffered job, for a processor thread whose job just returned; null when none. */
    AheadBuffer.Held poll() {
        return buffer.poll();
    }

    /** A processor ran for {@code nanos}: the take-ahead estimate learns from it. */
    void processed(long nanos) {
        takeAhead.processed(nanos);
    }

    /** A simulated crash: buffered jobs are left to lock expiry, never handed back. */
    void crash() {
        crashed = true;
    }
}
