package io.bullpen.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.RateLimit;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@BullpenTest
class RateLimitedApiExampleTest {

    @BeforeEach
    void needsFlowControl(BullpenTestContext ctx) {
    }

    @Test
    void everyCallSucceedsEventuallyAndNoSecondHoldsMoreThanTheLimit(BullpenTestContext ctx) {
        // 10 calls/s, 30 calls added at once, a 429 to every 7th call with a Retry-After of 200 ms.
        try (RateLimitedApiExample example = new RateLimitedApiExample(10, 30, Duration.ofHours(1), 7, Duration.ofMillis(200))) {
            example.start(ctx.redisson());

            await().atMost(Duration.ofSeconds(30)).until(() -> example.succeeded() == 30);

            assertThat(example.calls().getRateLimit()).contains(RateLimit.of(10, Duration.ofSeconds(1)));
            // A 429 used no attempt: with the default of one attempt, the call would have failed.
            assertThat(example.tooMany()).isGreaterThanOrEqualTo(4);
            assertThat(example.calls().getJobCounts().failed()).isZero();
            // Across both workers, as the queue booked the starts: at most 10 in any second.
            assertThat(maxInAnySecond(example.starts())).isLessThanOrEqualTo(10);
        }
        ctx.assertInvariant(RateLimitedApiExample.QUEUE);
    }

    @Test
    void theCallsKeepFlowingAfterEach429(BullpenTestContext ctx) {
        // The example's own workload: 15 calls every 2 s, a 429 (Retry-After 1 s) to every 25th call.
        try (RateLimitedApiExample example = new RateLimitedApiExample()) {
            example.start(ctx.redisson());
            await().atMost(Duration.ofSeconds(15)).until(() -> example.tooMany() >= 1);
            int atFirst429 = example.succeeded();

            // Two more batches' worth within 6 s: the queue did not stop at its 429.
            await().atMost(Duration.ofSeconds(6)).until(() -> example.succeeded() >= atFirst429 + 20);
        }
    }

    private static int maxInAnySecond(List<Instant> starts) {
        List<Instant> sorted = starts.stream().sorted().toList();
        int best = 0;
        for (int i = 0, end = 0; i < sorted.size(); i++) {
            while (end < sorted.size() && sorted.get(end).isBefore(sorted.get(i).plusSeconds(1))) {
                end++;
            }
            best = Math.max(best, end - i);
        }
        return best;
    }
}
