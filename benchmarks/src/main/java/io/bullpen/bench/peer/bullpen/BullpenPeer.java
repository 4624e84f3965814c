package io.bullpen.bench.peer.bullpen;

import io.bullpen.bench.BenchContext;
import io.bullpen.bench.peer.Peer;
import io.bullpen.bench.peer.PeerDriver;

/** Bullpen, in this process, on a Redisson client with default settings. */
public final class BullpenPeer implements Peer {
    @Override
    public String name() {
        return "bullpen";
    }

    @Override
    public String title() {
        return "Bullpen";
    }

    @Override
    public boolean hasFlowControl() {
        return true;
    }

    @Override
    public PeerDriver open(BenchContext ctx, String workload) throws Exception {
        return BullpenDriver.open(ctx.url(), ctx.sizes().warmUpJobs());
    }
}
