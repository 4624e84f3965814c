package io.bullpen;

import io.bullpen.internal.DeduplicationScripts;
import io.bullpen.internal.KeyScheme;
import io.bullpen.internal.RedisCalls;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import org.redisson.api.RedissonClient;

/**
 * {@link Queue}'s deduplication reads and admin: who owns an id, and freeing one by hand. The
 * claiming and releasing happen in the job scripts (addJob, the finish, removals), see
 * {@link Deduplication}.
 */
final class QueueDeduplication {
    private final RedissonClient redisson;
    private final KeyScheme keys;
    private final DeduplicationScripts scripts;

    QueueDeduplication(RedissonClient redisson, KeyScheme keys) {
        this.redisson = redisson;
        this.keys = keys;
        this.scripts = new DeduplicationScripts(redisson, keys);
    }

    CompletionStage<Optional<String>> ownerOf(String id) {
        Deduplication.of(id); // validates, naming a bad id
        return redisson.<String>getBucket(RedisCalls.plain(keys.dedup(id))).getAsync().thenApply(Optional::ofNullable);
    }

    CompletionStage<Boolean> removeKey(String id) {
        Deduplication.of(id);
        return scripts.removeDeduplicationKey(id);
    }
}
