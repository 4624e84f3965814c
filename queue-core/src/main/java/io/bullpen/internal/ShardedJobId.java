package io.bullpen.internal;

import java.util.Objects;

/**
 * A job id that also says which shard of its queue the job lives in, for a queue spread over
 * several hash tags (one {@link KeyScheme} per shard). Not used yet: every queue has one shard,
 * 0, so every id in use today is a shard-0 id. Not API.
 *
 * <p>Text form: {@code <id>} on shard 0, {@code <shard>:<id>} on any other shard (decimal, no sign,
 * no leading zero). Today's ids are therefore unchanged. The form is unambiguous because a plain
 * id never contains {@code :} (automatic ids are digits; {@link Validation#jobId(String)} rejects
 * it in custom ids), and canonical: each value has exactly one text, so texts compare like values.
 *
 * @param shard the shard index, 0 to {@link #MAX_SHARDS} - 1
 * @param id the job's id within its shard (its key is {@code KeyScheme#job(id)} of that shard)
 */
public record ShardedJobId(int shard, String id) {

    /** One shard per Redis Cluster slot at most: more shards could not spread any further. */
    public static final int MAX_SHARDS = 16384;

    /**
     * @throws NullPointerException if {@code id} is null
     * @throws IllegalArgumentException if the shard is out of range or the id is empty or contains {@code :}
     */
    public ShardedJobId {
        Objects.requireNonNull(id, "job id must not be null");
        if (shard < 0 || shard >= MAX_SHARDS) {
            throw new IllegalArgumentException("shard must be between 0 and " + (MAX_SHARDS - 1) + " but was " + shard);
        }
        if (id.isEmpty() || id.indexOf(':') >= 0) {
            throw new IllegalArgumentException("job id must be non-empty and without ':' but was " + Validation.quote(id));
        }
    }

    /**
     * Reads the text form.
     *
     * @param text {@code <id>} or {@code <shard>:<id>}
     * @return the id and its shard (0 for a plain id)
     * @throws NullPointerException if {@code text} is null
     * @throws IllegalArgumentException if the text is not in the canonical form; the message quotes it
     */
    public static ShardedJobId parse(String text) {
        Objects.requireNonNull(text, "sharded job id must not be null");
        int colon = text.indexOf(':');
        if (colon < 0) {
            return new ShardedJobId(0, text);
        }
        String shard = text.substring(0, colon);
        // At most 5 digits (MAX_SHARDS - 1 = 16383) before parsing, so no overflow; shard 0 and
        // leading zeros are refused to keep one text per value.
        if (shard.isEmpty() || shard.length() > 5 || shard.charAt(0) == '0' || !shard.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new IllegalArgumentException("sharded job id " + Validation.quote(text)
                    + " must be <id> or <shard>:<id> with shard a number from 1 to " + (MAX_SHARDS - 1));
        }
        try {
            return new ShardedJobId(Integer.parseInt(shard), text.substring(colon + 1));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("sharded job id " + Validation.quote(text) + ": " + e.getMessage(), e);
        }
    }

    /** @return the text form: the plain id on shard 0, {@code <shard>:<id>} otherwise */
    public String text() {
        return shard == 0 ? id : shard + ":" + id;
    }

    /** @return {@link #text()} */
    @Override
    public String toString() {
        return text();
    }
}
