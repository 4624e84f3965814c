package io.bullpen.internal;

import io.bullpen.CancelResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import org.redisson.api.RScript.ReturnType;
import org.redisson.api.RedissonClient;

/** The cancel scripts of one queue: cancelJob and the workers' checkCancels. Not API. */
public final class CancelScripts {
    /** The most characters of a cancel reason. */
    public static final int MAX_REASON_LENGTH = 1000;

    private final ScriptRunner runner;
    private final KeyScheme k;
    private final ScriptKeys scriptKeys;

    /**
     * @param redisson the client
     * @param keys the queue's keys
     */
    public CancelScripts(RedissonClient redisson, KeyScheme keys) {
        this.runner = new ScriptRunner(redisson);
        this.k = keys;
        this.scriptKeys = new ScriptKeys(keys);
    }

    /**
     * Checks a cancel's arguments before anything is written.
     *
     * @throws IllegalArgumentException for a blank job id, or a reason that is null or too long
     */
    public static void validate(String jobId, String reason) {
        if (jobId == null || jobId.isBlank()) {
            throw new IllegalArgumentException("job id must not be blank but was " + Validation.quote(jobId));
        }
        if (reason == null) {
            throw new IllegalArgumentException("cancel reason must not be null");
        }
        if (reason.length() > MAX_REASON_LENGTH) {
            throw new IllegalArgumentException("cancel reason must be at most " + MAX_REASON_LENGTH
                    + " characters but was " + reason.length());
        }
    }

    /** cancelJob: cancels a job in any state; see {@link CancelResult}. */
    public CompletionStage<CancelResult> cancelJob(long now, String jobId, String reason) {
        validate(jobId, reason);
        return runner.<Object>run("cancelJob", ReturnType.LONG, scriptKeys.of("cancelJob"), k.jobPrefix(), jobId,
                reason, Long.toString(now)).thenApply(reply -> switch ((int) ScriptReplies.num(reply)) {
                    case 1 -> CancelResult.CANCELLED_WAITING;
                    case 2 -> CancelResult.CANCELLED_DELAYED;
                    case 3 -> CancelResult.CANCELLED_PRIORITIZED;
                    case 4 -> CancelResult.CANCEL_REQUESTED;
                    case 5 -> CancelResult.ALREADY_FINISHED;
                    default -> CancelResult.NOT_FOUND;
                });
    }

    /**
     * checkCancels: which of these active jobs were cancelled.
     *
     * @param jobIds the worker's active jobs (not empty)
     * @return job id to cancel reason, for the cancelled ones only
     */
    public CompletionStage<Map<String, String>> checkCancels(List<String> jobIds) {
        List<Object> args = new ArrayList<>(1 + jobIds.size());
        args.add(k.jobPrefix());
        args.addAll(jobIds);
        return runner.<List<Object>>run("checkCancels", ReturnType.LIST, scriptKeys.of("checkCancels"), args.toArray())
                .thenApply(reply -> {
                    Map<String, String> out = new LinkedHashMap<>();
                    for (int i = 0; i + 1 < reply.size(); i += 2) {
                        out.put(ScriptReplies.str(reply.get(i)), ScriptReplies.str(reply.get(i + 1)));
                    }
                    return out;
                });
    }
}
