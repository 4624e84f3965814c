package io.bullpen.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.redisson.api.RScript.ReturnType;
import org.redisson.api.RedissonClient;

/** The group scripts of one queue (settings and reads), one method per script. Not API. */
public final class GroupScripts {
    /** The settings in setGroupSettings' ARGV order (3 to 9). */
    private static final List<String> SETTINGS = List.of(GroupFields.CONCURRENCY, GroupFields.RATE_MAX,
            GroupFields.RATE_PER, GroupFields.RATE_BURST, GroupFields.MAX_SIZE, GroupFields.WEIGHT, GroupFields.PAUSED);

    private final ScriptRunner runner;
    private final KeyScheme k;
    private final ScriptKeys scriptKeys;

    /**
     * @param redisson the client
     * @param keys the queue's keys
     */
    public GroupScripts(RedissonClient redisson, KeyScheme keys) {
        this.runner = new ScriptRunner(redisson);
        this.k = keys;
        this.scriptKeys = new ScriptKeys(keys);
    }

    /** One group as getGroups returns it; a setting the group does not have is null. */
    public record RawGroup(String name, long waiting, long active, boolean paused, Long concurrency, Long rateMax,
                           Long ratePerMs, Long rateBurst, Long maxSize, Integer weight) {
    }

    /**
     * setGroupSettings: writes (value non-empty) or removes (value "") fields of a group, or of the
     * defaults for groups when {@code group} is null; returns whether anything changed.
     *
     * @param group the group, null for the defaults
     * @param fieldsAndValues field, value, field, value...
     */
    public CompletionStage<Boolean> setGroupSettings(String group, String... fieldsAndValues) {
        List<Object> args = new ArrayList<>(2 + SETTINGS.size());
        args.add(k.jobPrefix());
        args.add(group == null ? "" : group);
        for (int i = 0; i < SETTINGS.size(); i++) {
            args.add("-");
        }
        for (int i = 0; i < fieldsAndValues.length; i += 2) {
            int at = SETTINGS.indexOf(fieldsAndValues[i]);
            if (at < 0) {
                throw new IllegalArgumentException("no group setting named '" + fieldsAndValues[i] + "'");
            }
            args.set(2 + at, fieldsAndValues[i + 1]);
        }
        return runner.<Long>run("setGroupSettings", ReturnType.LONG, scriptKeys.of("setGroupSettings"), args.toArray())
                .thenApply(r -> r == 1);
    }

    /**
     * getGroups: a page of groups in name order after {@code after} ("" = the first page), or
     * only the group {@code after} when {@code one}.
     */
    public CompletionStage<List<RawGroup>> getGroups(String after, int limit, boolean one) {
        return runner.<List<Object>>run("getGroups", ReturnType.LIST, scriptKeys.of("getGroups"), k.jobPrefix(), after,
                Integer.toString(limit), one ? "1" : "0").thenApply(reply -> {
                    List<RawGroup> out = new ArrayList<>(reply.size());
                    for (Object entry : reply) {
                        List<?> g = (List<?>) entry;
                        out.add(new RawGroup(ScriptReplies.str(g.get(0)), ScriptReplies.num(g.get(1)), ScriptReplies.num(g.get(2)),
                                ScriptReplies.num(g.get(3)) == 1, opt(g.get(4)), opt(g.get(5)), opt(g.get(6)), opt(g.get(7)),
                                opt(g.get(8)), opt(g.get(9)) == null ? null : opt(g.get(9)).intValue()));
                    }
                    return out;
                });
    }

    private static Long opt(Object value) {
        String s = ScriptReplies.str(value);
        return s == null || s.isEmpty() ? null : Long.parseLong(s);
    }
}
