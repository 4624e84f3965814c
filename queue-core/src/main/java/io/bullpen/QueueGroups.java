package io.bullpen;

import io.bullpen.internal.GroupScripts;
import io.bullpen.internal.GroupScripts.RawGroup;
import io.bullpen.internal.KeyScheme;
import io.bullpen.internal.RedisCalls;
import io.bullpen.internal.Scripts;
import io.bullpen.internal.Validation;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletionStage;
import org.redisson.api.RedissonClient;

/**
 * The group settings and reads behind {@link Queue}'s group methods: one settings script
 * (setGroupSettings) and one read (getGroups). Every value is validated before anything is
 * written. Package-private: {@code Queue} is the API.
 */
final class QueueGroups {
    /** The most groups one page of {@link #getGroups} returns. */
    static final int MAX_PAGE = 1000;

    private final RedissonClient redisson;
    private final KeyScheme keys;
    private final GroupScripts scripts;

    QueueGroups(RedissonClient redisson, KeyScheme keys, Scripts scripts) {
        this.redisson = redisson;
        this.keys = keys;
        this.scripts = new GroupScripts(redisson, keys);
    }

    void setGroupConcurrency(String group, long concurrency) {
        Validation.atLeast("group concurrency", concurrency, 1);
        set("setGroupConcurrency", group, "concurrency", Long.toString(concurrency));
    }

    void removeGroupConcurrency(String group) {
        set("removeGroupConcurrency", group, "concurrency", "");
    }

    void setGroupRateLimit(String group, RateLimit limit) {
        set("setGroupRateLimit", group, "rl:max", Long.toString(limit.max()), "rl:per",
                Long.toString(limit.per().toMillis()), "rl:burst", limit.burst() > 0 ? Long.toString(limit.burst()) : "");
    }

    void removeGroupRateLimit(String group) {
        set("removeGroupRateLimit", group, "rl:max", "", "rl:per", "", "rl:burst", "");
    }

    void setGroupMaxSize(String group, long maxSize) {
        Validation.atLeast("group max size", maxSize, 1);
        set("setGroupMaxSize", group, "maxSize", Long.toString(maxSize));
    }

    void removeGroupMaxSize(String group) {
        set("removeGroupMaxSize", group, "maxSize", "");
    }

    void setGroupWeight(String group, int weight) {
        Validation.between("group weight", weight, 1, 1000);
        // Weight 1 is the default: not stored, so a group with no other setting can leave the registry.
        set("setGroupWeight", group, "weight", weight == 1 ? "" : Integer.toString(weight));
    }

    void pauseGroup(String group) {
        set("pauseGroup", group, "paused", "1");
    }

    void resumeGroup(String group) {
        set("resumeGroup", group, "paused", "");
    }

    void setDefaultGroupConcurrency(long concurrency) {
        Validation.atLeast("default group concurrency", concurrency, 1);
        defaults("setDefaultGroupConcurrency", "concurrency", Long.toString(concurrency));
    }

    void removeDefaultGroupConcurrency() {
        defaults("removeDefaultGroupConcurrency", "concurrency", "");
    }

    void setDefaultGroupRateLimit(RateLimit limit) {
        defaults("setDefaultGroupRateLimit", "rl:max", Long.toString(limit.max()), "rl:per",
                Long.toString(limit.per().toMillis()), "rl:burst", limit.burst() > 0 ? Long.toString(limit.burst()) : "");
    }

    void removeDefaultGroupRateLimit() {
        defaults("removeDefaultGroupRateLimit", "rl:max", "", "rl:per", "", "rl:burst", "");
    }

    CompletionStage<OptionalLong> defaultConcurrency() {
        return QueueGroupDefaults.concurrency(redisson, keys);
    }

    CompletionStage<Optional<RateLimit>> defaultRateLimit() {
        return QueueGroupDefaults.rateLimit(redisson, keys);
    }

    List<GroupInfo> getGroups(String after, int limit) {
        if (after != null) {
            Validation.groupName(after);
        }
        Validation.between("limit", limit, 1, MAX_PAGE);
        return join("getGroups", scripts.getGroups(after == null ? "" : after, limit, false)).stream()
                .map(QueueGroups::info).toList();
    }

    Optional<GroupInfo> getGroup(String group) {
        Validation.groupName(group);
        return join("getGroup", scripts.getGroups(group, 1, true)).stream().findFirst().map(QueueGroups::info);
    }

    private static GroupInfo info(RawGroup g) {
        Optional<RateLimit> rate = g.rateMax() == null ? Optional.empty()
                : Optional.of(new RateLimit(g.rateMax(), Duration.ofMillis(g.ratePerMs()), g.rateBurst() == null ? 0 : g.rateBurst()));
        return new GroupInfo(g.name(), g.waiting(), g.active(), g.paused(),
                g.concurrency() == null ? OptionalLong.empty() : OptionalLong.of(g.concurrency()), rate,
                g.maxSize() == null ? OptionalLong.empty() : OptionalLong.of(g.maxSize()),
                g.weight() == null ? 1 : g.weight());
    }

    private void set(String operation, String group, String... fieldsAndValues) {
        Validation.groupName(group);
        join(operation, scripts.setGroupSettings(group, fieldsAndValues));
    }

    private void defaults(String operation, String... fieldsAndValues) {
        join(operation, scripts.setGroupSettings(null, fieldsAndValues));
    }

    private <R> R join(String operation, CompletionStage<R> stage) {
        return RedisCalls.join(keys.queue(), operation, stage);
    }
}
