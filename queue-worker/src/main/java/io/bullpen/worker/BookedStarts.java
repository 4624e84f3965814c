package io.bullpen.worker;

import io.bullpen.internal.ScriptTypes.RawJob;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;

/**
 * Attempts a rate limit booked for a later start (the take's {@code startIn}), by job id, until
 * the timer starts them or a close gives them back. Whoever removes an attempt from the map
 * starts it or gives it back, so each happens once.
 */
final class BookedStarts<T> {
    private final Map<String, ActiveJob<T>> booked = new ConcurrentHashMap<>();
    private final ScheduledExecutorService scheduler;
    private final BooleanSupplier running;
    private final BiConsumer<ActiveJob<T>, RawJob> dispatch;
    private final BiConsumer<ActiveJob<T>, RawJob> giveBack;

    /**
     * @param dispatch starts an attempt now
     * @param giveBack ends an attempt's slot and returns the job to its line, unstarted
     */
    BookedStarts(ScheduledExecutorService scheduler, BooleanSupplier running, BiConsumer<ActiveJob<T>, RawJob> dispatch,
                 BiConsumer<ActiveJob<T>, RawJob> giveBack) {
        this.scheduler = scheduler;
        this.running = running;
        this.dispatch = dispatch;
        this.giveBack = giveBack;
    }

    /** The rate limit booked this job's start {@code delayMs} from now: start it then, on the timer thread. */
    void book(ActiveJob<T> attempt, RawJob raw, long delayMs) {
        booked.put(attempt.id(), attempt);
        try {
            scheduler.schedule(() -> {
                if (booked.remove(attempt.id(), attempt)) {
                    if (running.getAsBoolean()) {
                        dispatch.accept(attempt, raw);
                    } else {
                        giveBack.accept(attempt, raw);
                    }
                }
            }, delayMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            if (booked.remove(attempt.id(), attempt)) {
                giveBack.accept(attempt, raw);
            }
        }
    }

    /** On close: every job still waiting for its booked start goes back to its line at once, unstarted. */
    void giveBackAll() {
        booked.forEach((id, attempt) -> {
            if (booked.remove(id, attempt)) {
                giveBack.accept(attempt, null);
            }
        });
    }
}
