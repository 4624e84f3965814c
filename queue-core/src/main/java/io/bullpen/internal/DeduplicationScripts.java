package io.bullpen.internal;

import java.util.concurrent.CompletionStage;
import org.redisson.api.RScript.ReturnType;
import org.redisson.api.RedissonClient;

/** The deduplication scripts of one queue, one method per script. Not API. */
public final class DeduplicationScripts {
    private final ScriptRunner runner;
    private final KeyScheme k;
    private final ScriptKeys scriptKeys;

    /**
     * @param redisson the client
     * @param keys the queue's keys
     */
    public DeduplicationScripts(RedissonClient redisson, KeyScheme keys) {
        this.runner = new ScriptRunner(redisson);
        this.k = keys;
        this.scriptKeys = new ScriptKeys(keys);
    }

    /** removeDeduplicationKey: deletes dedup:<id> and its kept add; true when the key existed. */
    public CompletionStage<Boolean> removeDeduplicationKey(String id) {
        return runner.<Long>run("removeDeduplicationKey", ReturnType.LONG,
                scriptKeys.of("removeDeduplicationKey", "dedup", k.dedup(id))).thenApply(r -> r == 1);
    }
}
