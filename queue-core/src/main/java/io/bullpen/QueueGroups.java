package io.bullpen;

import io.bullpen.internal.KeyScheme;
import io.bullpen.internal.Scripts;
import java.util.List;
import java.util.Optional;
import org.redisson.api.RedissonClient;

/**
 * The group settings and reads behind {@link Queue}'s group methods. Package-private:
 * {@code Queue} is the API.
 */
final class QueueGroups {
    private final RedissonClient redisson;
    private final KeyScheme keys;
    private final Scripts scripts;

    QueueGroups(RedissonClient redisson, KeyScheme keys, Scripts scripts) {
        this.redisson = redisson;
        this.keys = keys;
        this.scripts = scripts;
    }

    private static UnsupportedOperationException notYet() {
        return new UnsupportedOperationException("issue 15: groups not built yet");
    }

    void setGroupConcurrency(String group, long concurrency) { throw notYet(); }
    void removeGroupConcurrency(String group) { throw notYet(); }
    void setGroupRateLimit(String group, RateLimit limit) { throw notYet(); }
    void removeGroupRateLimit(String group) { throw notYet(); }
    void setGroupMaxSize(String group, long maxSize) { throw notYet(); }
    void removeGroupMaxSize(String group) { throw notYet(); }
    void setGroupWeight(String group, int weight) { throw notYet(); }
    void pauseGroup(String group) { throw notYet(); }
    void resumeGroup(String group) { throw notYet(); }
    void setDefaultGroupConcurrency(long concurrency) { throw notYet(); }
    void removeDefaultGroupConcurrency() { throw notYet(); }
    void setDefaultGroupRateLimit(RateLimit limit) { throw notYet(); }
    void removeDefaultGroupRateLimit() { throw notYet(); }
    List<GroupInfo> getGroups(String after, int limit) { throw notYet(); }
    Optional<GroupInfo> getGroup(String group) { throw notYet(); }
}
