package io.bullpen.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.redisson.api.RScript.ReturnType;
import org.redisson.api.RedissonClient;

/** The {@code awaitJob} script of one queue (register awaits, read finished results). Not API. */
public final class AwaitScripts {
    private final ScriptRunner runner;
    private final KeyScheme k;
    private final ScriptKeys scriptKeys;

    /**
     * What awaitJob answered for one job.
     *
     * @param jobId the job
     * @param status "pending", "completed", "failed" or "missing"
     * @param value the return value (JSON) when completed, the failed reason when failed, else ""
     */
    public record Answer(String jobId, String status, String value) {
        /** @return true when the job has finished (completed or failed) */
        public boolean finished() {
            return "completed".equals(status) || "failed".equals(status);
        }
    }

    /**
     * The reply of one awaitJob call.
     *
     * @param newestEventId the events stream's newest id at the call ("0-0" when empty)
     * @param answers one per job, in the order asked
     */
    public record Reply(String newestEventId, List<Answer> answers) {
    }

    /**
     * @param redisson the client
     * @param keys the queue's keys
     */
    public AwaitScripts(RedissonClient redisson, KeyScheme keys) {
        this.runner = new ScriptRunner(redisson);
        this.k = keys;
        this.scriptKeys = new ScriptKeys(keys);
    }

    /** @return the queue's keys */
    public KeyScheme keys() {
        return k;
    }

    /**
     * awaitJob: marks the unfinished jobs awaited and answers for each.
     *
     * @param ttlMs how long a result is kept after the finish, ms
     * @param jobIds the jobs, at least one
     * @return the reply
     */
    public CompletionStage<Reply> awaitJob(long ttlMs, Collection<String> jobIds) {
        List<Object> args = new ArrayList<>(2 + jobIds.size());
        args.add(k.jobPrefix());
        args.add(Long.toString(ttlMs));
        args.addAll(jobIds);
        List<String> ids = List.copyOf(jobIds);
        return runner.<List<Object>>run("awaitJob", ReturnType.LIST, scriptKeys.of("awaitJob"), args.toArray())
                .thenApply(reply -> {
                    List<Answer> answers = new ArrayList<>(ids.size());
                    for (int i = 0; i < ids.size(); i++) {
                        answers.add(new Answer(ids.get(i), ScriptReplies.str(reply.get(1 + 2 * i)), ScriptReplies.str(reply.get(2 + 2 * i))));
                    }
                    return new Reply(ScriptReplies.str(reply.get(0)), answers);
                });
    }
}
