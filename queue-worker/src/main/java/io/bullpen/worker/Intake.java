package io.bullpen.worker;

/**
 * Whether the worker takes jobs: running from start to close, and not paused ({@link PauseGate}).
 * Stopping wakes whoever waits for a slot or for a resume.
 */
final class Intake {
    /** Closed by Worker#pause: the fetch loop parks and finishes take no next job. */
    final PauseGate pause = new PauseGate();
    private final Slots<?> slots;
    private volatile boolean running;

    Intake(Slots<?> slots) {
        this.slots = slots;
    }

    boolean running() {
        return running;
    }

    void running(boolean value) {
        running = value;
        slots.signal();
        pause.wake();
    }

    boolean paused() {
        return pause.isPaused();
    }

    /** @return running and not paused: a call may take jobs */
    boolean taking() {
        return running && !pause.isPaused();
    }
}
