package io.bullpen.worker;

/**
 * Whether the worker takes jobs: {@link Worker#pause()} closes the gate, {@link Worker#resume()}
 * opens it. The fetch loop parks here while it is closed (no Redis call); a finish then takes no
 * next job. Jobs already taken run and finish as usual.
 */
final class PauseGate {
    private final Object lock = new Object();
    private volatile boolean paused;

    boolean isPaused() {
        return paused;
    }

    /** @return whether this call changed the state */
    boolean pause() {
        synchronized (lock) {
            boolean changed = !paused;
            paused = true;
            return changed;
        }
    }

    /** @return whether this call changed the state; wakes the parked fetch loop at once */
    boolean resume() {
        synchronized (lock) {
            boolean changed = paused;
            paused = false;
            lock.notifyAll();
            return changed;
        }
    }

    /** Wakes a parked fetch loop without resuming (the worker stops). */
    void wake() {
        synchronized (lock) {
            lock.notifyAll();
        }
    }

    /** Parks while paused, until resumed, woken, or {@code maxMillis} pass. */
    void awaitResumed(long maxMillis) throws InterruptedException {
        synchronized (lock) {
            if (paused) {
                lock.wait(maxMillis);
            }
        }
    }
}
