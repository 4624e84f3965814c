package io.bullpen.bench.peer;

import io.bullpen.bench.peer.bullmq.BullmqPeer;
import io.bullpen.bench.peer.bullpen.BullpenPeer;
import io.bullpen.bench.peer.redisson.RedissonPeer;

/** The peers by name. */
public final class Peers {
    private Peers() {
    }

    /**
     * @param name bullpen, bullmq or redisson
     * @return the peer
     * @throws IllegalArgumentException for another name
     */
    public static Peer create(String name) {
        return switch (name) {
            case "bullpen" -> new BullpenPeer();
            case "bullmq" -> new BullmqPeer();
            case "redisson" -> new RedissonPeer();
            default -> throw new IllegalArgumentException("unknown peer '" + name + "'");
        };
    }
}
