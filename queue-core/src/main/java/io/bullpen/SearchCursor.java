package io.bullpen;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Where a search stopped, as the opaque string {@link SearchPage#cursor()} hands out: the state,
 * the index of the next job in the state's structure and, past a queue's wait list, the group
 * whose ready jobs are being read. The wait list's jobs come first, then each group's in group
 * name order (as {@link Queue#getJobs} lists them).
 *
 * @param state the state searched
 * @param group the group being read, or null for the state's own key
 * @param index the index of the next job to read in that key
 */
record SearchCursor(JobState state, String group, long index) {
    private static final String VERSION = "1";

    String encode() {
        String text = VERSION + ":" + state.label() + ":" + index + (group == null ? "" : ":" + group);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    /** @throws IllegalArgumentException when {@code cursor} is not a cursor of a search of {@code state} */
    static SearchCursor decode(JobState state, String cursor) {
        String text;
        try {
            text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw bad(cursor, "not a search cursor");
        }
        String[] parts = text.split(":", 4);
        if (parts.length < 3 || !parts[0].equals(VERSION)) {
            throw bad(cursor, "not a search cursor");
        }
        if (!parts[1].equals(state.label())) {
            throw bad(cursor, "a cursor of a search of " + parts[1] + " jobs, not " + state.label());
        }
        long index;
        try {
            index = Long.parseLong(parts[2]);
        } catch (NumberFormatException e) {
            throw bad(cursor, "not a search cursor");
        }
        if (index < 0 || (parts.length == 4 && (state != JobState.WAITING || parts[3].isEmpty()))) {
            throw bad(cursor, "not a search cursor");
        }
        return new SearchCursor(state, parts.length == 4 ? parts[3] : null, index);
    }

    private static IllegalArgumentException bad(String cursor, String why) {
        String shown = cursor.length() <= 80 ? cursor : cursor.substring(0, 80) + "...";
        return new IllegalArgumentException("cursor \"" + shown + "\" is " + why);
    }
}
