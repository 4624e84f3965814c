package io.bullpen.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.JobCounts;
import io.bullpen.JobScheduler;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

@BullpenTest
class NightlyReportExampleTest {

    @Test
    void heartbeatRunsRepeatedlyAndTheNightlyReportWaitsForTwoAmInShanghai(BullpenTestContext ctx) {
        try (NightlyReportExample example = new NightlyReportExample(Duration.ofMillis(300))) {
            example.start(ctx.redisson());

            await().atMost(Duration.ofSeconds(10)).until(() -> example.runs().size() >= 3);
            assertThat(example.runs()).allSatisfy(id -> assertThat(id).startsWith("repeat-heartbeat-")).doesNotHaveDuplicates();
            List<JobScheduler> schedulers = example.reports().getJobSchedulers();
            assertThat(schedulers).extracting(JobScheduler::id).containsExactlyInAnyOrder("heartbeat", "nightly-report");
            JobScheduler nightly = schedulers.stream().filter(s -> s.id().equals("nightly-report")).findFirst().orElseThrow();
            assertThat(nightly.nextRun()).hasValueSatisfying(t -> assertThat(
                    t.atZone(NightlyReportExample.ZONE).toLocalTime()).hasToString("02:00"));
        }
        ctx.assertInvariant(NightlyReportExample.QUEUE);
    }

    @Test
    void restartingTheExampleAddsNoSecondPendingRun(BullpenTestContext ctx) {
        try (NightlyReportExample first = new NightlyReportExample(Duration.ofHours(1))) {
            first.start(ctx.redisson());
        }
        try (NightlyReportExample second = new NightlyReportExample(Duration.ofHours(1))) {
            second.start(ctx.redisson());
            // The heartbeat's due iteration may still be waiting or running for a moment; once it
            // ran, each scheduler has exactly one pending run, delayed.
            await().atMost(Duration.ofSeconds(10)).until(() -> second.reports().getJobCounts().delayed() == 2);
            JobCounts counts = second.reports().getJobCounts();
            assertThat(counts.waiting() + counts.prioritized() + counts.active() + counts.delayed()).isEqualTo(2);
        }
    }
}
