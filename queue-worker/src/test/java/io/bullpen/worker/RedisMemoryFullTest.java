package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import io.bullpen.Job;
import io.bullpen.JobSpec;
import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.QueueUnavailableException;
import io.bullpen.RedisMemoryFullException;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.QueueSnapshot;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Redis at maxmemory with noeviction: adds fail at once with a {@link RedisMemoryFullException}
 * that says what to do, nothing of them is written, and a worker still finishes the jobs it holds.
 */
@BullpenTest
class RedisMemoryFullTest {

    @Test
    void addsFailNamingTheQueueAndNothingIsHalfWrittenWhileAWorkerFinishesItsJobs(BullpenTestContext ctx)
            throws Exception {
        ctx.redis().assumeNotCluster("sets maxmemory on one server");
        String uri = ctx.redis().uri();
        Queue<String> queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
        CountDownLatch release = new CountDownLatch(1);
        try (Worker<String, String> worker = Worker.builder(ctx.redisson(), queue.name(), String.class)
                .processor(c -> {
                    release.await(20, TimeUnit.SECONDS);
                    return "done " + c.job().data();
                })
                .concurrency(3).build().start()) {
            List<Job<String>> held = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                held.add(queue.add("held", "h" + i));
            }
            await().atMost(Duration.ofSeconds(5)).until(() -> queue.getJobCounts().active() == 3);
            QueueSnapshot before = ctx.snapshot(queue.name());
            try {
                RawRedis.call(uri, "CONFIG", "SET", "maxmemory-policy", "noeviction");
                RawRedis.call(uri, "CONFIG", "SET", "maxmemory", "1");

                Throwable add = catchThrowable(() -> queue.add("late", "x"));
                assertThat(add).isInstanceOf(RedisMemoryFullException.class)
                        .isInstanceOf(QueueUnavailableException.class)
                        .hasMessageContaining("queue " + queue.name() + ": add failed")
                        .hasMessageContaining("out of memory")
                        .hasMessageContaining("maxmemory")
                        .hasMessageContaining("retention");
                assertThat(((RedisMemoryFullException) add).operation()).isEqualTo("add");
                Throwable bulk = catchThrowable(() -> queue.addBulk(List.of(JobSpec.of("a", "1"), JobSpec.of("b", "2"))));
                assertThat(bulk).isInstanceOf(RedisMemoryFullException.class).hasMessageContaining("addBulk failed");

                // Refused at its first write: no job hash, no id taken, no event, nothing in any set.
                QueueSnapshot after = ctx.snapshot(queue.name());
                assertThat(after.jobIds()).isEqualTo(before.jobIds());
                assertThat(after.string("id")).isEqualTo(before.string("id"));
                assertThat(after.events()).isEqualTo(before.events());
                assertThat(after.waiting()).isEmpty();
                assertThat(after.leases().keySet()).isEqualTo(before.leases().keySet());

                // Still full: the worker records every job it held.
                release.countDown();
                await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(held)
                        .allSatisfy(j -> assertThat(queue.getState(j.id())).isEqualTo(JobState.COMPLETED)));
                assertThat(queue.getJob(held.get(0).id()).orElseThrow().returnValue(String.class)).contains("done h0");
                ctx.assertInvariant(queue.name());
            } finally {
                release.countDown();
                RawRedis.call(uri, "CONFIG", "SET", "maxmemory", "0");
            }
            Job<String> after = queue.add("after", "y");
            await().atMost(Duration.ofSeconds(10)).until(() -> queue.getState(after.id()) == JobState.COMPLETED);
        }
    }
}
