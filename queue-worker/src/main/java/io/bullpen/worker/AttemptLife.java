package io.bullpen.worker;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The life of one taken job in this worker, as a state machine: every stage it may be in and
 * every move between them, in one table ({@link #ALLOWED}). The worker's classes move a job only
 * through {@link #move} (the move must happen) and {@link #claim} (the first of several racing
 * parties wins, such as the processor returning and the timeout firing); a move the table does
 * not allow throws {@link IllegalStateException}, naming the job and both stages.
 *
 * <pre>
 *   BUFFERED --> TAKEN | HANDED_BACK | DROPPED
 *   TAKEN    --> BOOKED | RUNNING | FINISHING | HANDED_BACK | ABANDONED
 *   BOOKED   --> TAKEN | HANDED_BACK
 *   RUNNING  --> FINISHING | ABANDONED
 *   ABANDONED --> FINISHING | SETTLED | HANDED_BACK
 *   FINISHING --> SETTLED
 *   SETTLED, HANDED_BACK, DROPPED: final
 * </pre>
 */
final class AttemptLife {
    /** Where a taken job is in this worker. */
    enum Stage {
        /** Taken ahead of the free slots: leased, waiting in the {@link AheadBuffer}, no slot held. */
        BUFFERED,
        /** Holds a slot; read, or about to be; on its way to the executor. */
        TAKEN,
        /** A rate limit booked its start for later: slot held, lock renewed, on the timer. */
        BOOKED,
        /** Its processor runs. */
        RUNNING,
        /** Its outcome is claimed (the processor returned, the timeout fired, or the job could not be read) and being recorded. */
        FINISHING,
        /** Its outcome landed, was rejected, or was given up; or a forced close dropped it. Final. */
        SETTLED,
        /** Given back to its line (moveToWait) without an outcome: close, or no executor to run it. Final. */
        HANDED_BACK,
        /** A forced close gave up on its running processor: nothing is recorded unless it returns a result. */
        ABANDONED,
        /** Buffered and its lock could not be renewed: never run here. Final. */
        DROPPED
    }

    static final Map<Stage, Set<Stage>> ALLOWED = allowed();

    private static Map<Stage, Set<Stage>> allowed() {
        Map<Stage, Set<Stage>> m = new EnumMap<>(Stage.class);
        m.put(Stage.BUFFERED, EnumSet.of(Stage.TAKEN, Stage.HANDED_BACK, Stage.DROPPED));
        m.put(Stage.TAKEN, EnumSet.of(Stage.BOOKED, Stage.RUNNING, Stage.FINISHING, Stage.HANDED_BACK, Stage.ABANDONED));
        m.put(Stage.BOOKED, EnumSet.of(Stage.TAKEN, Stage.HANDED_BACK));
        m.put(Stage.RUNNING, EnumSet.of(Stage.FINISHING, Stage.ABANDONED));
        m.put(Stage.ABANDONED, EnumSet.of(Stage.FINISHING, Stage.SETTLED, Stage.HANDED_BACK));
        m.put(Stage.FINISHING, EnumSet.of(Stage.SETTLED));
        m.put(Stage.SETTLED, EnumSet.noneOf(Stage.class));
        m.put(Stage.HANDED_BACK, EnumSet.noneOf(Stage.class));
        m.put(Stage.DROPPED, EnumSet.noneOf(Stage.class));
        return m;
    }

    private final String jobId;
    private Stage stage; // guarded by this

    private AttemptLife(String jobId, Stage first) {
        this.jobId = jobId;
        this.stage = first;
    }

    /** A job a take gave a slot. */
    static AttemptLife taken(String jobId) {
        return new AttemptLife(jobId, Stage.TAKEN);
    }

    /** A job a take gave beyond the free slots. */
    static AttemptLife buffered(String jobId) {
        return new AttemptLife(jobId, Stage.BUFFERED);
    }

    synchronized Stage stage() {
        return stage;
    }

    synchronized boolean is(Stage s) {
        return stage == s;
    }

    /**
     * Moves to {@code next}, which must be allowed from the current stage.
     *
     * @throws IllegalStateException when the table does not allow it
     */
    synchronized void move(Stage next) {
        check(stage, next);
        stage = next;
    }

    /**
     * Moves from {@code from} to {@code next} when the job is still in {@code from}: the first
     * of several racing parties wins.
     *
     * @return false when the job is no longer in {@code from} (another party moved it first)
     * @throws IllegalStateException when the table does not allow {@code from -> next}
     */
    synchronized boolean claim(Stage from, Stage next) {
        check(from, next);
        if (stage != from) {
            return false;
        }
        stage = next;
        return true;
    }

    /** @return whether the outcome is claimed or beyond: no renewal, no cancel check, no timeout. */
    synchronized boolean outcomeClaimed() {
        return stage == Stage.FINISHING || stage == Stage.SETTLED || stage == Stage.HANDED_BACK
                || stage == Stage.DROPPED;
    }

    private void check(Stage from, Stage next) {
        if (!ALLOWED.get(from).contains(next)) {
            throw new IllegalStateException("job " + jobId + " cannot move from " + from + " to " + next);
        }
    }

    @Override
    public synchronized String toString() {
        return jobId + ":" + stage;
    }
}
