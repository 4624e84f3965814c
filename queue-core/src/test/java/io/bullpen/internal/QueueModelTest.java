package io.bullpen.internal;

import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Randomized model-based test of the Lua state machine: {@value #STEPS} random operations run
 * against real Redis through {@link Scripts} and against {@link QueueModel} ({@link QueueModelRun}); after every step the
 * invariant holds, getCounts matches the model and every state structure (orders and scores
 * included), every job hash and the lease set equal the model's. Liveness too
 * ({@link QueueModelLiveness}): two idle workers wait on the marker and their wake times as real
 * ones do, and a job that may run always has one of them woken for it; the clock jumps now and
 * then (quiet gaps of 5-60 s).
 *
 * <p>Fixed seeds by default; {@code -Dbullpen.model.seed=1,2,3} replaces them (to explore).
 * Every failure names the seed, the step and the last operations.
 */
@BullpenTest
class QueueModelTest {
    static final int STEPS = 1000;
    /** Real lock TTL: 1 hour, so no job stalls during the test. */
    static final long LOCK_MS = 3_600_000;
    /** The clock never moves further than this from its start, so no lease ever looks expired. */
    static final long MAX_ELAPSED_MS = LOCK_MS / 2;
    /** Above this many live jobs, adds are replaced by removals (keeps snapshots cheap). */
    static final int MAX_JOBS = 80;
    static final int HISTORY = 10;
    static final long[] DEFAULT_SEEDS = {20240611L, 7L, 982451653L};

    static Stream<Long> seeds() {
        String prop = System.getProperty("bullpen.model.seed");
        if (prop != null && !prop.isBlank()) {
            return Arrays.stream(prop.split(",")).map(String::trim).filter(s -> !s.isEmpty()).map(Long::parseLong);
        }
        return Arrays.stream(DEFAULT_SEEDS).boxed();
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void randomOperationsMatchTheModel(long seed, BullpenTestContext ctx) {
        new QueueModelRun(seed, ctx).run();
    }

}
