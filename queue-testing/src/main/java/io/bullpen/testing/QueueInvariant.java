package io.bullpen.testing;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The state invariant of a queue (DESIGN.md section 3), checked on a {@link QueueSnapshot}:
 *
 * <ol>
 *   <li>every job id in wait, prioritized, delayed, leases (the set of active jobs), completed,
 *       failed and waiting-children (parents of flows) appears exactly once across all of them (twice in one list counts as a violation
 *       too);</li>
 *   <li>each of those ids has its {@code job:<id>} hash;</li>
 *   <li>every {@code job:<id>} hash belongs to one of those structures;</li>
 *   <li>there is no {@code active} key: active jobs are the members of {@code leases}, and a list
 *       of them would be a second copy of that state;</li>
 *   <li>groups: the ready jobs of each {@code group:<g>} count as a state structure above (so a
 *       job is in exactly one place, grouped or not); each has {@code grp} = g and g is in the
 *       {@code groups} registry; meta {@code gin} - {@code gout} is the number of grouped ready jobs; each
 *       group's {@code active} ({@code groupmeta:<g>}, absent = 0) is its number of leased jobs.</li>
 *   <li>locks: a job hash with a {@code lock} field (the lock token) is in {@code leases}: every way
 *       out of active clears it (a leased job may lack it: a renewal that found its lease expired
 *       drops it).</li>
 * </ol>
 */
public final class QueueInvariant {

    /** The state structures in the order violations name them; leases holds the active jobs. */
    private static final List<String> STATES = List.of("wait", "prioritized", "delayed", "leases", "waiting-children",
            "completed", "failed");
    private static final Set<String> LISTS = Set.of("wait");
    private static final String GROUP = "group:";

    private QueueInvariant() {
    }

    /**
     * Lists every violation of the invariant, one readable sentence each.
     *
     * @param snapshot the queue's state
     * @return the violations; empty when the invariant holds
     */
    public static List<String> violations(QueueSnapshot snapshot) {
        List<String> violations = new ArrayList<>();
        // id -> the states holding it, with repeats for duplicates inside a list.
        Map<String, List<String>> placements = new TreeMap<>(QueueSnapshot.ID_ORDER);
        List<String> structures = new ArrayList<>(STATES);
        for (String key : snapshot.keys()) {
            if (key.startsWith(GROUP)) {
                structures.add(key);
            }
        }
        for (String state : structures) {
            Collection<String> ids = ids(snapshot, state, violations);
            for (String id : ids) {
                placements.computeIfAbsent(id, k -> new ArrayList<>()).add(state);
            }
        }
        Set<String> hashes = snapshot.jobIds();
        placements.forEach((id, states) -> {
            if (states.size() > 1) {
                violations.add("job " + id + " appears " + states.size() + " times: in " + String.join(", ", states));
            }
            if (!hashes.contains(id)) {
                violations.add("job " + id + " is in " + states.get(0) + " but has no job:" + id + " hash");
            }
        });
        for (String id : hashes) {
            if (!placements.containsKey(id)) {
                violations.add("job:" + id + " hash is in none of " + String.join(", ", STATES) + " (orphan)");
            }
        }
        for (String id : hashes) {
            if (snapshot.job(id).containsKey("lock") && !snapshot.leases().containsKey(id)) {
                violations.add("job " + id + " has a lock field but no lease (every way out of active clears it)");
            }
        }
        groupViolations(snapshot, structures, violations);
        dedupViolations(snapshot, placements, violations);
        if (snapshot.exists("active")) {
            violations.add("active exists (a " + snapshot.type("active")
                    + ") but must not: leases is the set of active jobs");
        }
        return violations;
    }

    /**
     * Fails when the invariant does not hold.
     *
     * @param snapshot the queue's state
     * @throws AssertionError listing every violation and then the whole snapshot
     */
    public static void assertHolds(QueueSnapshot snapshot) {
        List<String> violations = violations(snapshot);
        if (!violations.isEmpty()) {
            throw new AssertionError("queue invariant violated for " + snapshot.keyPrefix() + "*:\n  - "
                    + String.join("\n  - ", violations) + "\n" + snapshot);
        }
    }

    /** Rule 5: the group lines and counters. */
    /**
     * A deduplication key without an expiry ({@code dedup:<id>}, not ttl mode) names a job that
     * has not finished: released on every end and removal (ARCHITECTURE I37).
     */
    private static void dedupViolations(QueueSnapshot snapshot, Map<String, List<String>> placements,
            List<String> violations) {
        for (String key : snapshot.keys()) {
            if (!key.startsWith("dedup:") || key.endsWith(":next") || snapshot.pttl(key) > 0) {
                continue;
            }
            String owner = snapshot.string(key);
            List<String> states = placements.get(owner);
            if (states == null || states.contains("completed") || states.contains("failed")) {
                violations.add(key + " names job " + owner + ", which is " + (states == null ? "gone" : states.get(0))
                        + ": a deduplication key must name an unfinished job or expire");
            }
        }
    }

    private static void groupViolations(QueueSnapshot snapshot, List<String> structures, List<String> violations) {
        Set<String> registry = snapshot.exists("groups") ? snapshot.zset("groups").keySet() : Set.of();
        long grouped = 0;
        for (String key : structures) {
            if (!key.startsWith(GROUP) || !"zset".equals(snapshot.type(key))) {
                continue;
            }
            String group = key.substring(GROUP.length());
            if (!registry.contains(group)) {
                violations.add("group " + group + " has ready jobs but is not in the groups registry");
            }
            for (String id : snapshot.zset(key).keySet()) {
                grouped++;
                String grp = snapshot.job(id).get("grp");
                if (!group.equals(grp)) {
                    violations.add("job " + id + " is in " + key + " but its grp is " + grp);
                }
            }
        }
        long counted = snapshot.groupedWaiting();
        if (counted != grouped) {
            violations.add("meta gin - gout is " + counted + " but " + grouped + " grouped jobs are ready");
        }
        Map<String, Long> leased = new TreeMap<>();
        if ("zset".equals(snapshot.type("leases"))) {
            for (String id : snapshot.leases().keySet()) {
                String grp = snapshot.job(id).get("grp");
                if (grp != null) {
                    leased.merge(grp, 1L, Long::sum);
                }
            }
        }
        Set<String> groups = new java.util.TreeSet<>(leased.keySet());
        for (String key : snapshot.keys()) {
            if (key.startsWith("groupmeta:")) {
                groups.add(key.substring("groupmeta:".length()));
            }
        }
        for (String group : groups) {
            long active = Long.parseLong(snapshot.hash("groupmeta:" + group).getOrDefault("active", "0"));
            long expected = leased.getOrDefault(group, 0L);
            if (active != expected) {
                violations.add("group " + group + " counts " + active + " active jobs but " + expected + " hold a lease");
            }
        }
    }

    /** The ids of one state structure, or none (plus a violation) when the key has the wrong type. */
    private static Collection<String> ids(QueueSnapshot snapshot, String state, List<String> violations) {
        String expected = LISTS.contains(state) ? "list" : "zset";
        String actual = snapshot.type(state);
        if (actual == null) {
            return List.of();
        }
        if (!actual.equals(expected)) {
            violations.add(state + " is a " + actual + " but must be a " + expected);
            return List.of();
        }
        return expected.equals("list") ? snapshot.list(state) : snapshot.zset(state).keySet();
    }
}
