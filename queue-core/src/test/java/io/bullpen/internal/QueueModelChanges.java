package io.bullpen.internal;

import io.bullpen.internal.QueueModelTypes.Job;
import io.bullpen.internal.QueueModelTypes.Outcome;
import io.bullpen.internal.QueueModelTypes.State;

/**
 * The admin changes of {@link QueueModel}: removeJob, cancelJob, promote, changeDelay,
 * changePriority, updateData and retryJob, on the model's structures, as the scripts make them.
 */
final class QueueModelChanges {
    private final QueueModel m;

    QueueModelChanges(QueueModel model) {
        this.m = model;
    }

    /** removeJob. */
    Outcome remove(String id) {
        Job job = m.jobs.get(id);
        if (job == null) {
            return Outcome.NOT_FOUND;
        }
        if (job.state == State.ACTIVE) {
            return Outcome.LOCKED; // every active job of this test holds a live lock
        }
        if (job.state != State.COMPLETED && job.state != State.FAILED) {
            m.expiry.remove(id);
        }
        switch (job.state) {
            case WAITING -> m.wait.remove(id);
            case PRIORITIZED -> m.prioritized.remove(id);
            case DELAYED -> m.delayed.remove(id);
            case COMPLETED -> m.completed.remove(id);
            case FAILED -> m.failed.remove(id);
            default -> throw new IllegalStateException();
        }
        m.jobs.remove(id);
        m.releaseDedup(job);
        return Outcome.OK;
    }

    /**
     * cancelJob: an active job is flagged (the first reason stays); a waiting, delayed or
     * prioritized one fails at once with its stored removeOnFail retention.
     */
    io.bullpen.CancelResult cancel(long now, String id, String reason) {
        Job job = m.jobs.get(id);
        if (job == null) {
            return io.bullpen.CancelResult.NOT_FOUND;
        }
        io.bullpen.CancelResult result;
        switch (job.state) {
            case ACTIVE -> {
                if (job.cancel == null) {
                    job.cancel = reason;
                }
                return io.bullpen.CancelResult.CANCEL_REQUESTED;
            }
            case COMPLETED, FAILED -> {
                return io.bullpen.CancelResult.ALREADY_FINISHED;
            }
            case WAITING -> {
                m.wait.remove(id);
                result = io.bullpen.CancelResult.CANCELLED_WAITING;
            }
            case DELAYED -> {
                m.delayed.remove(id);
                result = io.bullpen.CancelResult.CANCELLED_DELAYED;
            }
            case PRIORITIZED -> {
                m.prioritized.remove(id);
                result = io.bullpen.CancelResult.CANCELLED_PRIORITIZED;
            }
            default -> throw new IllegalStateException();
        }
        m.expiry.remove(id);
        job.finishedOn = now;
        m.finishInto(job, State.FAILED, m.failed, now, job.opts.onFail());
        m.releaseDedup(job);
        return result;
    }

    /** promote. */
    Outcome promote(String id) {
        Job job = m.jobs.get(id);
        if (job == null) {
            return Outcome.NOT_FOUND;
        }
        if (job.state != State.DELAYED) {
            return Outcome.NOT_IN_STATE;
        }
        m.delayed.remove(id);
        moveDeadline(job, 0);
        m.pushReady(job, false);
        return Outcome.OK;
    }

    /** moveExpiry: a job still in the expiry set with expireAfter is due in dueIn: its deadline follows. */
    private void moveDeadline(Job job, long dueIn) {
        if (m.expiry.containsKey(job.id) && job.opts.expireAfterMs() > 0) {
            m.pendingDeadlines.put(job.id, dueIn + job.opts.expireAfterMs());
        }
    }

    /** changeDelay: a delayed job due at now + delayMs; 0 runs it now (as promote). */
    Outcome changeDelay(long now, String id, long delayMs) {
        Job job = m.jobs.get(id);
        if (job == null) {
            return Outcome.NOT_FOUND;
        }
        if (job.state != State.DELAYED) {
            return Outcome.NOT_IN_STATE;
        }
        moveDeadline(job, delayMs);
        if (delayMs > 0) {
            m.addDelayed(job, now + delayMs);
        } else {
            m.delayed.remove(id);
            m.pushReady(job, false);
        }
        return Outcome.OK;
    }

    /** changePriority: a waiting or prioritized job to the back of its new priority (wait for 0). */
    Outcome changePriority(String id, int priority) {
        Job job = m.jobs.get(id);
        if (job == null) {
            return Outcome.NOT_FOUND;
        }
        if (job.state == State.PRIORITIZED) {
            m.prioritized.remove(id);
        } else if (job.state == State.WAITING) {
            // LREM count 1: the leftmost occurrence.
            m.wait.remove(id);
        } else {
            return Outcome.NOT_IN_STATE;
        }
        job.priority = priority;
        m.pushReady(job, false);
        return Outcome.OK;
    }

    /** updateData: any unfinished job's data. */
    Outcome updateData(String id, String data) {
        Job job = m.jobs.get(id);
        if (job == null) {
            return Outcome.NOT_FOUND;
        }
        if (job.state == State.COMPLETED || job.state == State.FAILED) {
            return Outcome.NOT_IN_STATE;
        }
        job.data = data;
        return Outcome.OK;
    }

    /** retryJob from FAILED. */
    Outcome retryFailed(String id) {
        Job job = m.jobs.get(id);
        if (job == null) {
            return Outcome.NOT_FOUND;
        }
        if (job.state != State.FAILED) {
            return Outcome.NOT_IN_STATE;
        }
        m.failed.remove(id);
        job.attemptsMade = 0;
        job.cancel = null;
        job.finishedOn = null;
        // Retried, it runs: no deadline.
        job.xp = null;
        job.expired = false;
        m.pushReady(job, false);
        return Outcome.OK;
    }
}
