package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.bullpen.JobOptions;
import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.flow.FlowJob;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;

/**
 * The children a processor adds at runtime get the worker's default job options for their queue
 * (Worker.Builder.defaultJobOptions), option by option under their own, as a flow add does.
 */
@BullpenTest
class RuntimeChildrenDefaultsTest {
    private static final JobOptions PAGE_DEFAULTS = JobOptions.builder().attempts(4).priority(3).build();

    private RedissonClient redisson;
    private String reports;
    private String pages;
    private final List<Worker<?, ?>> workers = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        this.redisson = ctx.redisson();
        this.reports = ctx.newQueueName();
        this.pages = ctx.newQueueName();
    }

    @AfterEach
    void tearDown() {
        workers.forEach(w -> w.close(Duration.ofSeconds(5)));
    }

    private Queue<Integer> queue(String name) {
        return Queue.builder(redisson, name, Integer.class).build();
    }

    /** Two pages: "plain" with no options of its own, "own" with its own attempts. */
    private FlowJob[] twoPages() {
        return new FlowJob[] {
                FlowJob.builder(pages, "render", 1).options(JobOptions.builder().jobId("plain").build()).build(),
                FlowJob.builder(pages, "render", 2).options(JobOptions.builder().jobId("own").attempts(2).build()).build()};
    }

    private void assertPagesGotTheDefaultsUnderTheirOwnOptions() {
        Queue<Integer> pageQueue = queue(pages);
        await().atMost(Duration.ofSeconds(20)).until(() -> pageQueue.getJob("own").isPresent()
                && pageQueue.getJob("plain").isPresent());
        JobOptions plain = pageQueue.getJob("plain").orElseThrow().options();
        JobOptions own = pageQueue.getJob("own").orElseThrow().options();
        assertThat(plain.attempts()).isEqualTo(4);
        assertThat(plain.priority()).isEqualTo(3);
        assertThat(own.attempts()).as("the child's own option wins").isEqualTo(2);
        assertThat(own.priority()).as("the default fills in what the child did not set").isEqualTo(3);
    }

    @Test
    void runtimeChildrenGetTheWorkersDefaultJobOptionsForTheirQueueUnderTheirOwn() {
        Worker<Integer, String> w = Worker.builder(redisson, reports, Integer.class)
                .defaultJobOptions(pages, PAGE_DEFAULTS)
                .defaultJobOptions(reports, JobOptions.builder().attempts(9).build())
                .processor(c -> {
                    if (c.childrenCount() == 0) {
                        c.addChildren(twoPages());
                        c.waitForChildren();
                    }
                    return "assembled";
                }).build();
        workers.add(w);
        w.start();

        String parent = queue(reports).add("assemble", 0).id();

        assertPagesGotTheDefaultsUnderTheirOwnOptions();
        assertThat(queue(reports).getState(parent)).isEqualTo(JobState.WAITING_CHILDREN);
        assertThat(queue(pages).getJob("plain").orElseThrow().parents()).hasSize(1);
    }

    @Test
    void aBatchWorkersRuntimeChildrenGetTheDefaultsToo() {
        Worker<Integer, String> w = Worker.builder(redisson, reports, Integer.class)
                .defaultJobOptions(pages, PAGE_DEFAULTS)
                .batchProcessor((JobBatch<Integer, String> batch) -> {
                    batch.jobs().forEach(c -> c.addChildren(twoPages()));
                    return "assembled";
                }).build();
        workers.add(w);
        w.start();

        String parent = queue(reports).add("assemble", 0).id();

        assertPagesGotTheDefaultsUnderTheirOwnOptions();
        await().atMost(Duration.ofSeconds(20)).until(() -> queue(reports).getState(parent) == JobState.COMPLETED);
    }

    @Test
    void defaultsSettingAJobIdAreRefusedAtBuild() {
        Worker.Builder<Integer, Object> b = Worker.builder(redisson, reports, Integer.class);
        assertThatThrownBy(() -> b.defaultJobOptions(pages, JobOptions.builder().jobId("x").build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("job id");
        assertThatThrownBy(() -> b.defaultJobOptions("a:b", PAGE_DEFAULTS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a:b");
    }
}
