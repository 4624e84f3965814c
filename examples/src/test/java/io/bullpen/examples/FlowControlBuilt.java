package io.bullpen.examples;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.bullpen.Queue;
import io.bullpen.testing.BullpenTestContext;

/**
 * Skips a test whose example needs flow control (issue 15) while the queue's limits or groups
 * are not built yet (the API throws UnsupportedOperationException). Once issue 15 is merged every
 * probe passes and this class can go.
 */
final class FlowControlBuilt {
    private FlowControlBuilt() {
    }

    /** Skips the test unless the queue rate limit, global concurrency and groups work. */
    static void assumeBuilt(BullpenTestContext ctx) {
        Queue<String> probe = Queue.builder(ctx.redisson(), "probe-flow-control", String.class).build();
        assumeTrue(works(() -> {
            probe.getRateLimit();
            probe.getGlobalConcurrency();
        }), "the queue rate limit is not built yet");
        assumeTrue(works(() -> probe.getGroups(null, 1)), "groups are not built yet");
    }

    private static boolean works(Runnable call) {
        try {
            call.run();
            return true;
        } catch (UnsupportedOperationException notYet) {
            return false;
        }
    }
}
