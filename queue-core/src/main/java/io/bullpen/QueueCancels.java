package io.bullpen;

import io.bullpen.internal.CancelScripts;
import io.bullpen.internal.FlowCancels;
import io.bullpen.internal.KeyScheme;
import io.bullpen.internal.RedisCalls;
import java.time.Clock;
import org.redisson.api.RedissonClient;

/**
 * The logic behind {@link Queue#cancel(String, String)}: validates, then one cancelJob call.
 * Package-private: {@code Queue} is the API.
 */
final class QueueCancels {
    private final String queue;
    private final CancelScripts scripts;
    private final Clock clock;
    private final FlowCancels flows;

    QueueCancels(RedissonClient redisson, KeyScheme keys, Clock clock) {
        this.queue = keys.queue();
        this.scripts = new CancelScripts(redisson, keys);
        this.clock = clock;
        this.flows = new FlowCancels(redisson, keys.prefix(), clock);
    }

    CancelResult cancel(String jobId, String reason) {
        CancelScripts.validate(jobId, reason);
        FlowCancels.Pending children = RedisCalls.call(queue, "cancel", () -> flows.pending(queue, jobId));
        CancelResult result = RedisCalls.join(queue, "cancel", scripts.cancelJob(clock.millis(), jobId, reason));
        if (!children.children().isEmpty() && result != CancelResult.NOT_FOUND && result != CancelResult.ALREADY_FINISHED) {
            RedisCalls.call(queue, "cancel", () -> flows.cancelChildren(children, reason));
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
        return removed;
    }
}
