package io.bullpen.worker;

import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Randomized model test of flows run by real workers ({@link FlowModelRun}): random trees and
 * DAGs over three queues (a child shared within an add, and leaves with custom ids shared across
 * adds, some added after the shared job ended), random failures, every {@code ChildFailure}
 * policy on random edges, random removes and cancels before the queues run and while they run.
 * After each run: every job ended (none left waiting for children, none needing the reconciler),
 * every job that no remove or cancel reached ended as its own failure and its children's
 * outcomes under its edges' policies say, no parent started before its children ended (unless a
 * CONTINUE child failed), no child's value is missing from what its parent read or from
 * {@code getChildren}, no job ran twice, and each job started within a bound of when it could.
 *
 * <p>Two runs with random seeds by default (seconds); {@code -Dbullpen.flowmodel.seed=1,2,3}
 * replays seeds, {@code -Dbullpen.flowmodel.runs=N} runs N random ones; the soak profile
 * ({@code bullpen.soak=true}) runs 10 larger runs. Every failure names the seed.
 */
@BullpenTest
class FlowModelTest {
    static final boolean SOAK = Boolean.getBoolean("bullpen.soak");

    static Stream<Long> seeds() {
        String prop = System.getProperty("bullpen.flowmodel.seed");
        if (prop != null && !prop.isBlank()) {
            return Arrays.stream(prop.split(",")).map(String::trim).filter(s -> !s.isEmpty()).map(Long::parseLong);
        }
        int runs = Integer.getInteger("bullpen.flowmodel.runs", SOAK ? 10 : 2);
        Random seeds = new Random(System.nanoTime());
        return Stream.generate(seeds::nextLong).limit(runs);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void randomFlowsWithFailuresRemovesAndCancelsEndAsTheirPoliciesSay(long seed, BullpenTestContext ctx) {
        new FlowModelRun(seed, ctx, SOAK ? FlowModelRun.Size.SOAK : FlowModelRun.Size.SMALL).run();
    }
}
