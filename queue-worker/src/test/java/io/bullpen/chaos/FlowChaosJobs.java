package io.bullpen.chaos;

import io.bullpen.JobState;
import io.bullpen.UnrecoverableJobException;
import io.bullpen.flow.ChildResult;
import io.bullpen.worker.Worker;
import java.time.Duration;
import java.util.List;
import java.util.StringJoiner;
import java.util.function.Consumer;
import org.redisson.api.RedissonClient;

/**
 * The jobs of {@link FlowClusterChaosTest}, shared by its in-process workers and the worker JVMs
 * it kills ({@link FlowChaosWorkerMain}). Each processor reports what it did as lines:
 * {@code start <queue:id> <epochMillis>}, {@code view <queue:id> <child>=<STATE>/<v|r|->,...}
 * (what {@code ctx.children()} returned: v = the child's own value, x = another value, r = a failed
 * reason, - neither) and {@code end <queue:id> <epochMillis> ok|fail}.
 */
final class FlowChaosJobs {
    static final Duration LOCK = Duration.ofSeconds(2);

    /** A job's data: whether it fails for good by design. */
    record Step(boolean fail) {
    }

    private FlowChaosJobs() {
    }

    static Worker<Step, String> worker(RedissonClient redisson, String queue, String name, int concurrency,
            Consumer<String> out) {
        return Worker.builder(redisson, queue, Step.class)
                .name(name)
                .concurrency(concurrency)
                .lockDuration(LOCK)
                .stalledInterval(LOCK)
                // Kills and failovers stall jobs; a job must not fail for stalling: its outcome is by design.
                .maxStalledCount(50)
                .closeTimeout(Duration.ofSeconds(5))
                .processor(ctx -> {
                    String key = queue + ":" + ctx.job().id();
                    out.accept("start " + key + " " + System.currentTimeMillis());
                    List<ChildResult> children = ctx.children();
                    if (!children.isEmpty()) {
                        StringJoiner view = new StringJoiner(",", "view " + key + " ", "");
                        for (ChildResult c : children) {
                            String child = c.queue() + ":" + c.id();
                            String seen = c.returnValueJson().isPresent()
                                    ? (c.returnValueJson().get().contains("\"v-" + child + "\"") ? "v" : "x")
                                    : c.failedReason().isPresent() ? "r" : "-";
                            view.add(child + "=" + c.state() + "/" + seen);
                        }
                        out.accept(view.toString());
                    }
                    boolean fail = ctx.job().data().fail();
                    out.accept("end " + key + " " + System.currentTimeMillis() + " " + (fail ? "fail" : "ok"));
                    if (fail) {
                        throw new UnrecoverableJobException("planned failure");
                    }
                    return "v-" + key;
                })
                .build();
    }

    static boolean ended(JobState state) {
        return state == JobState.COMPLETED || state == JobState.FAILED;
    }
}
