package io.bullpen.chaos;

import io.bullpen.internal.KeyScheme;
import java.util.ArrayList;
import java.util.List;
import org.redisson.api.RScoredSortedSet;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.client.protocol.ScoredEntry;

/**
 * What a run that did not drain leaves for its reader: the queue's meta, state sizes, leases
 * (with their jobs), the group lines (groups:ready, groups:limited, each group's settings and
 * state, ready count and first jobs), read straight from Redis, so a stranded group or a drifted
 * counter shows in the log.
 */
final class StateDump {
    private StateDump() {
    }

    /** The state of {@code queue} as lines of text. */
    static String of(RedissonClient c, String queue) {
        KeyScheme k = new KeyScheme(KeyScheme.DEFAULT_PREFIX, queue);
        StringBuilder b = new StringBuilder("\n=== state of ").append(queue).append('\n');
        b.append("meta ").append(c.getMap(k.meta(), StringCodec.INSTANCE).readAllMap()).append('\n');
        b.append("wait ").append(c.getList(k.waitList(), StringCodec.INSTANCE).size())
                .append(" prioritized ").append(c.getScoredSortedSet(k.prioritized(), StringCodec.INSTANCE).size())
                .append(" delayed ").append(c.getScoredSortedSet(k.delayed(), StringCodec.INSTANCE).size()).append('\n');
        b.append("leases ").append(entries(c, k.leases())).append(" now ").append(System.currentTimeMillis()).append('\n');
        b.append("groups:ready ").append(entries(c, k.groupsReady())).append('\n');
        b.append("groups:limited ").append(entries(c, k.groupsLimited())).append('\n');
        for (Object g : c.getScoredSortedSet(k.groups(), StringCodec.INSTANCE).readAll()) {
            RScoredSortedSet<Object> zs = c.getScoredSortedSet(k.group(g.toString()), StringCodec.INSTANCE);
            b.append("group ").append(g).append(" meta ")
                    .append(c.getMap(k.groupMeta(g.toString()), StringCodec.INSTANCE).readAllMap())
                    .append(" ready ").append(zs.size()).append('\n');
            for (Object id : zs.valueRange(0, 2)) {
                b.append("   job ").append(id).append(' ').append(c.getMap(k.job(id.toString()), StringCodec.INSTANCE).readAllMap()).append('\n');
            }
        }
        for (ScoredEntry<Object> e : c.getScoredSortedSet(k.leases(), StringCodec.INSTANCE).entryRange(0, 20)) {
            b.append("   leased ").append(e.getValue()).append(' ')
                    .append(c.getMap(k.job(e.getValue().toString()), StringCodec.INSTANCE).readAllMap()).append('\n');
        }
        return b.toString();
    }

    private static List<String> entries(RedissonClient c, String key) {
        List<String> out = new ArrayList<>();
        for (ScoredEntry<Object> e : c.getScoredSortedSet(key, StringCodec.INSTANCE).entryRange(0, 50)) {
            out.add(e.getValue() + "=" + e.getScore().longValue());
        }
        return out;
    }
}
