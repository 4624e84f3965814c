package io.bullpen.bench.peer.bullmq;

import io.bullpen.bench.BenchContext;
import io.bullpen.bench.peer.Peer;
import io.bullpen.bench.peer.PeerDriver;

/** BullMQ (the version pinned in benchmarks/peers/bullmq/package.json) in a Node child process. */
public final class BullmqPeer implements Peer {
    @Override
    public String name() {
        return "bullmq";
    }

    @Override
    public String title() {
        return "BullMQ";
    }

    @Override
    public PeerDriver open(BenchContext ctx, String workload) throws Exception {
        NpmSetup.ensureInstalled(ctx.bullmqDir());
        return new BullmqDriver(NodeProcess.start(ctx.bullmqDir(), workload + ".js", ctx.port(), ctx.sizes().warmUpJobs()), ctx);
    }
}
