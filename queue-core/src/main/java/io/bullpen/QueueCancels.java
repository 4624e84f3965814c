package io.bullpen;

import io.bullpen.internal.CancelScripts;
import io.bullpen.internal.FlowCancels;
import io.bullpen.internal.FlowRelay;
import io.bullpen.internal.KeyScheme;
import io.bullpen.internal.RedisCalls;
import java.time.Clock;
import org.redisson.api.RedissonClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The logic behind {@link Queue#cancel(String, String)} and {@link Queue#remove(String)}: validates,
 * then one cancelJob (or removeJob) call, the cancel of a flow parent's pending children, and the
 * relay of the ended job's end to parents in other slots.
 * Package-private: {@code Queue} is the API.
 */
final class QueueCancels {
    private static final Logger log = LoggerFactory.getLogger(QueueCancels.class);
    private final String queue;
    private final CancelScripts scripts;
    private final Clock clock;
    private final FlowCancels flows;
    private final FlowRelay relay;

    QueueCancels(RedissonClient redisson, KeyScheme keys, Clock clock) {
        this.queue = keys.queue();
        this.scripts = new CancelScripts(redisson, keys);
        this.clock = clock;
        this.flows = new FlowCancels(redisson, keys.prefix(), clock);
        this.relay = new FlowRelay(redisson, keys.prefix(), clock);
    }

    CancelResult cancel(String jobId, String reason) {
        CancelScripts.validate(jobId, reason);
        FlowCancels.Pending children = RedisCalls.call(queue, "cancel", () -> flows.pending(queue, jobId));
        CancelResult result = RedisCalls.join(queue, "cancel", scripts.cancelJob(clock.millis(), jobId, reason));
        if (result != CancelResult.NOT_FOUND && result != CancelResult.ALREADY_FINISHED) {
            if (!children.children().isEmpty()) {
                RedisCalls.call(queue, "cancel", () -> flows.cancelChildren(children, reason));
            }
            relayEnds(jobId);
        }
        return result;
    }

    /**
     * Removes a job; a flow parent's pending children that no other live parent waits for are
     * cancelled, recursively, as by {@link #cancel}.
     */
    boolean remove(String jobId, java.util.function.Supplier<Boolean> removeJob) {
        FlowCancels.Pending children = RedisCalls.call(queue, "remove", () -> flows.pending(queue, jobId));
        boolean removed = removeJob.get();
        if (removed && !children.children().isEmpty()) {
            RedisCalls.call(queue, "remove", () -> flows.cancelChildren(children, "parent " + queue + ":" + jobId + " removed"));
        }
        if (removed) {
            relayEnds(jobId);
        }
        return removed;
    }

    /**
     * A flow child that a cancel or remove ended tells its parents in other slots through this
     * queue's outbox: relay it now, as the worker that ends a child does, so the parents move on
     * without waiting for a worker of this queue (an empty outbox costs one read). A failure is
     * left to the workers' relays.
     */
    private void relayEnds(String jobId) {
        try {
            relay.relayOutbox(queue, 100);
        } catch (RuntimeException e) {
            log.warn("relaying the end of job {} of queue {} to its parents failed (a worker of the queue relays it): {}",
                    jobId, queue, e.toString());
        }
    }
}
