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
 *   <li>every job id in wait, prioritized, delayed, leases (the set of active jobs), completed and
 *       failed appears exactly once across all of them (twice in one list counts as a violation
 *       too);</li>
 *   <li>each of those ids has its {@code job:<id>} hash;</li>
 *   <li>every {@code job:<id>} hash belongs to one of those structures;</li>
 *   <li>there is no {@code active} key: active jobs are the members of {@code leases}, and a list
 *       of them would be a second copy of that state.</li>
 * </ol>
 */
public final class QueueInvariant {

    /** The state structures in the order violations name them; leases holds the active jobs. */
    private static final List<String> STATES = List.of("wait", "prioritized", "delayed", "leases", "completed",
            "failed");
    private static final Set<String> LISTS = Set.of("wait");

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
        for (String state : STATES) {
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
