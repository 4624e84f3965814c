package io.bullpen.bench.peer.redisson;

import io.bullpen.bench.BenchContext;
import io.bullpen.bench.peer.Peer;
import io.bullpen.bench.peer.PeerDriver;

/** Redisson's queues, in this process. */
public final class RedissonPeer implements Peer {
    @Override
    public String name() {
        return "redisson";
    }

    @Override
    public String title() {
        return "Redisson";
    }

    @Override
    public PeerDriver open(BenchContext ctx, String workload) throws Exception {
        return RedissonDriver.open(ctx.url(), ctx.sizes().warmUpJobs());
    }
}
