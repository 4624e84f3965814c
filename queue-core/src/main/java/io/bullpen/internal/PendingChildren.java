package io.bullpen.internal;

import java.util.ArrayList;
import java.util.List;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.ByteArrayCodec;

/**
 * Reads a flow parent's pending children: {@code job:<id>:deps} is a bitmap where bit i (Redis's
 * bit order: the most significant bit of byte 0 first) is set while child i of {@code job:<id>:kids}
 * has not ended. Not API.
 */
final class PendingChildren {

    private PendingChildren() {
    }

    /** @return the indexes of the first {@code limit} pending children, ascending (none when nothing is pending) */
    static List<Integer> indexes(RedissonClient redisson, String depsKey, int limit) {
        return indexes(redisson, depsKey, limit, 0);
    }

    /**
     * @param fromByte where to start looking, in bytes of the bitmap (8 children each); the search
     *     wraps around to the start, so every pending child can be reached whatever the limit
     * @return the indexes of up to {@code limit} pending children from there
     */
    static List<Integer> indexes(RedissonClient redisson, String depsKey, int limit, int fromByte) {
        // Sent once, like every read of a Queue call (Redisson's retries held a call ~5 s with Redis down).
        byte[] bits = redisson.<byte[]>getBucket(RedisCalls.plain(depsKey).codec(ByteArrayCodec.INSTANCE)).get();
        List<Integer> indexes = new ArrayList<>();
        if (bits == null || bits.length == 0) {
            return indexes;
        }
        int from = Math.floorMod(fromByte, bits.length);
        for (int n = 0; n < bits.length && indexes.size() < limit; n++) {
            int b = (from + n) % bits.length;
            int v = bits[b] & 0xFF;
            for (int bit = 0; v != 0 && bit < 8 && indexes.size() < limit; bit++) {
                if ((v & (0x80 >>> bit)) != 0) {
                    indexes.add(b * 8 + bit);
                }
            }
        }
        return indexes;
    }

    /** @return whether child {@code index} is still pending */
    static boolean isPending(RedissonClient redisson, String depsKey, long index) {
        return redisson.getBitSet(org.redisson.api.options.CommonOptions.name(depsKey).retryAttempts(0)).get(index);
    }
}
