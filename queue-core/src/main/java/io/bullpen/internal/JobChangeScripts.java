package io.bullpen.internal;

import io.bullpen.JobState;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.redisson.api.RScript.ReturnType;
import org.redisson.api.RedissonClient;

/**
 * The job-change scripts of one queue (changeDelay, changePriority, updateData), one method per
 * script. Arguments are validated by the caller; a refusal becomes a {@code JobNotFoundException}
 * or a {@code JobStateException} naming the state the job is in. Not API.
 */
public final class JobChangeScripts {
    private final ScriptRunner runner;
    private final KeyScheme k;
    private final ScriptKeys scriptKeys;

    /**
     * @param redisson the client
     * @param keys the queue's keys
     */
    public JobChangeScripts(RedissonClient redisson, KeyScheme keys) {
        this.runner = new ScriptRunner(redisson);
        this.k = keys;
        this.scriptKeys = new ScriptKeys(keys);
    }

    /** changeDelay: a delayed job is due {@code delayMs} from {@code now} (0 = now); returns its new state. */
    public CompletionStage<JobState> changeDelay(long now, String jobId, long delayMs) {
        return run("changeDelay", jobId, "change the delay of", "delayed", Long.toString(now), jobId,
                Long.toString(delayMs));
    }

    /** changePriority: a waiting or prioritized job gets {@code priority}; returns its new state. */
    public CompletionStage<JobState> changePriority(String jobId, int priority) {
        return run("changePriority", jobId, "change the priority of", "waiting or prioritized", jobId,
                Integer.toString(priority));
    }

    /** updateData: an unfinished job's data becomes {@code dataJson}. */
    public CompletionStage<Void> updateData(String jobId, String dataJson) {
        return run("updateData", jobId, "update the data of", "unfinished", jobId, dataJson).thenApply(s -> null);
    }

    private CompletionStage<JobState> run(String script, String jobId, String action, String needed, String... args) {
        Object[] argv = new Object[args.length + 1];
        argv[0] = k.jobPrefix();
        System.arraycopy(args, 0, argv, 1, args.length);
        return runner.<List<Object>>run(script, ReturnType.LIST, scriptKeys.of(script), argv).thenApply(reply -> {
            long code = ScriptReplies.num(reply.get(0));
            if (code < 0) {
                // The state the job is in, so the message says why: "... it is not delayed (it is waiting)".
                String state = reply.size() > 1 ? " (it is " + ScriptReplies.str(reply.get(1)) + ")" : "";
                throw ErrorCode.toException(code, k.queue(), jobId, action, needed + state);
            }
            return reply.size() > 1 ? JobState.fromLabel(ScriptReplies.str(reply.get(1))) : null;
        });
    }
}
