package io.bullpen.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.Job;
import io.bullpen.JobState;
import io.bullpen.examples.NotificationRetryExample.Notification;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

@BullpenTest
class NotificationRetryExampleTest {

    @Test
    void retriesOnTheStagedScheduleThenGivesUp(BullpenTestContext ctx) {
        // Every attempt fails; 100,000 times faster, the nine steps (15 s ... 15 h) take under 1 s.
        try (LogCapture logs = LogCapture.of(NotificationRetryExample.class);
             NotificationRetryExample example = new NotificationRetryExample(1.0, 100_000, Duration.ofHours(1))) {
            example.start(ctx.redisson());

            // Generous: a retry due in milliseconds was sometimes picked up only at the worker's
            // 5 s block timeout (reported to queue-worker); this test is about the schedule.
            await().atMost(Duration.ofSeconds(20)).until(() ->
                    logs.messages().stream().anyMatch(m -> m.contains("failed for good")));

            List<Job<Notification>> failed = example.notifications().getJobs(JobState.FAILED, 0, -1);
            assertThat(failed).hasSize(1);
            Job<Notification> job = failed.get(0);
            assertThat(job.attemptsMade()).isEqualTo(NotificationRetryExample.SCHEDULE.size() + 1);
            assertThat(job.failedReason()).contains("SMS gateway timed out");

            List<String> retries = logs.messages().stream().filter(m -> m.contains(" retry ")).toList();
            assertThat(retries).hasSize(9);
            assertThat(retries.get(0)).contains("attempt 1 failed", "retry 1 of 9", "(15s on the real schedule)");
            assertThat(retries.get(1)).contains("retry 2 of 9 in 1ms (3m on the real schedule)");
            assertThat(retries.get(8)).contains("retry 9 of 9 in 540ms (15h on the real schedule)");
            assertThat(logs.messages()).contains("notification " + job.id() + " failed for good after 10 attempts: SMS gateway timed out");
        }
        ctx.assertInvariant(NotificationRetryExample.QUEUE);
    }

    @Test
    void scalesTheScheduleDownBySpeedUp() {
        NotificationRetryExample example = new NotificationRetryExample(0.7, 1_000, Duration.ofSeconds(4));
        assertThat(example.backoff().delay(1)).isEqualTo(Duration.ofMillis(15));
        assertThat(example.backoff().delay(2)).isEqualTo(Duration.ofMillis(180));
        assertThat(example.backoff().delay(9)).isEqualTo(Duration.ofSeconds(54));
        assertThat(example.backoff().delay(12)).isEqualTo(Duration.ofSeconds(54));   // the last step repeats
    }
}
