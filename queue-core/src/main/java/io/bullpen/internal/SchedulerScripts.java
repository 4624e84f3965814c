package io.bullpen.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import org.redisson.api.RScript.ReturnType;
import org.redisson.api.RedissonClient;

/** The job-scheduler scripts of one queue, one method per script. Not API. */
public final class SchedulerScripts {
    private final ScriptRunner runner;
    private final KeyScheme k;
    private final ScriptKeys scriptKeys;

    /**
     * @param redisson the client
     * @param keys the queue's keys
     */
    public SchedulerScripts(RedissonClient redisson, KeyScheme keys) {
        this.runner = new ScriptRunner(redisson);
        this.k = keys;
        this.scriptKeys = new ScriptKeys(keys);
    }

    /** A scheduler's stored definition, as upsertJobScheduler takes it. */
    public record Definition(String name, String data, String opts, int priority, String repeatJson, String misfire,
                             long limit, long endAt) {
    }

    /** The KEYS of a script that works on one scheduler: the header's names, its hash bound. */
    private List<Object> keys(String script, String schedulerId) {
        return scriptKeys.of(script, "scheduler", k.scheduler(schedulerId));
    }

    /** upsertJobScheduler: returns whether anything changed, and the pending iteration's id. */
    public CompletionStage<List<Object>> upsertJobScheduler(long now, String schedulerId, Definition d, long firstDue,
                                                            long following) {
        return upsertJobScheduler(now, schedulerId, d, firstDue, following, null, null);
    }

    /** upsertJobScheduler with the upsert's trace headers and no owner (see the next overload). */
    public CompletionStage<List<Object>> upsertJobScheduler(long now, String schedulerId, Definition d, long firstDue,
                                                            long following, String traceContext) {
        return upsertJobScheduler(now, schedulerId, d, firstDue, following, traceContext, null);
    }

    /**
     * upsertJobScheduler with the upsert's trace headers, stored on the scheduler and copied to its
     * iterations ({@code tc}).
     *
     * @param traceContext the headers as {@link TraceHeaders#encode} wrote them; null for none
     *     (then the call is exactly the plain one)
     * @param owner the declaring configuration's owner, stored as the scheduler's mark; null for
     *     none (the mark is cleared)
     */
    public CompletionStage<List<Object>> upsertJobScheduler(long now, String schedulerId, Definition d, long firstDue,
                                                            long following, String traceContext, String owner) {
        List<Object> args = new ArrayList<>(List.of(k.jobPrefix(),
                Long.toString(now), schedulerId, d.name(), d.data(), d.opts(), Integer.toString(d.priority()),
                d.repeatJson(), d.misfire(), Long.toString(d.limit()), Long.toString(d.endAt()), Long.toString(firstDue),
                Long.toString(following), owner == null ? "" : owner));
        if (traceContext != null) {
            args.add(traceContext);
        }
        return runner.run("upsertJobScheduler", ReturnType.LIST, keys("upsertJobScheduler", schedulerId), args.toArray());
    }

    /** advanceJobScheduler: 0 nothing, 1 following stored, 2 iteration created, 3 schedule ended. */
    public CompletionStage<Long> advanceJobScheduler(long now, String schedulerId, String expectedJobId, long due,
                                                     long following) {
        return runner.<Long>run("advanceJobScheduler", ReturnType.LONG, keys("advanceJobScheduler", schedulerId), k.jobPrefix(),
                Long.toString(now), schedulerId, expectedJobId, Long.toString(due), Long.toString(following));
    }

    /** removeJobScheduler: true when there was such a scheduler. */
    public CompletionStage<Boolean> removeJobScheduler(String schedulerId) {
        return removeJobScheduler(schedulerId, null);
    }

    /**
     * removeJobScheduler, with an owner: removes the scheduler only when it carries that owner's mark.
     *
     * @param owner the owner, null for none (removed whoever wrote it)
     * @return true when a scheduler was removed
     */
    public CompletionStage<Boolean> removeJobScheduler(String schedulerId, String owner) {
        List<Object> keys = keys("removeJobScheduler", schedulerId);
        Object[] args = owner == null ? new Object[] {k.jobPrefix(), schedulerId}
                : new Object[] {k.jobPrefix(), schedulerId, owner};
        return runner.<Long>run("removeJobScheduler", ReturnType.LONG, keys, args).thenApply(r -> r == 1);
    }

    /** getJobSchedulers: id to stored fields, in next-run order. */
    public CompletionStage<List<Map.Entry<String, Map<String, String>>>> getJobSchedulers() {
        return runner.<List<Object>>run("getJobSchedulers", ReturnType.LIST, scriptKeys.of("getJobSchedulers"),
                k.schedulerPrefix()).thenApply(reply -> {
                    List<Map.Entry<String, Map<String, String>>> out = new ArrayList<>();
                    for (Object entry : reply) {
                        List<?> pair = (List<?>) entry;
                        out.add(Map.entry(ScriptReplies.str(pair.get(0)), ScriptReplies.hash(pair.get(1))));
                    }
                    return out;
                });
    }
}
