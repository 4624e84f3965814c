package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.internal.FlowRelay;
import io.bullpen.internal.FlowScripts.FlowRecord;
import io.bullpen.internal.KeyScheme;
import io.bullpen.internal.RedisCalls;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;

/**
 * Workers carry on what a dead process left of a flow, told by their heartbeat (no polling): the
 * ends a dead worker wrote to its queue's outbox but never relayed, and a flow a dead producer
 * committed but never created.
 */
@BullpenTest
class FlowCarryOnTest {
    private RedissonClient redisson;
    private String reports;
    private String pages;
    private FlowRelay relay;
    private final List<Worker<?, ?>> workers = new ArrayList<>();

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        this.redisson = ctx.redisson();
        this.reports = ctx.newQueueName();
        this.pages = ctx.newQueueName();
        this.relay = new FlowRelay(redisson, "bp", Clock.systemUTC());
    }

    @AfterEach
    void tearDown() {
        workers.forEach(w -> w.close(Duration.ofSeconds(5)));
    }

    /** A worker whose heartbeat comes every second (lockDuration / 2). */
    private void startWorker(String queue) {
        Worker<Integer, String> w = Worker.builder(redisson, queue, Integer.class).lockDuration(Duration.ofSeconds(2))
                .processor(c -> "done").build();
        workers.add(w);
        w.start();
    }

    private List<FlowRelay.Chunk> flow() {
        return List.of(
                new FlowRelay.Chunk(reports, List.of(new FlowRecord("r1", "assemble", "1", "", 0, 0, false, null, "",
                        "F" + pages + ":p1"))),
                new FlowRelay.Chunk(pages, List.of(new FlowRecord("p1", "render", "2", "", 0, 0, false, null,
                        reports + ":r1:0", ""))));
    }

    @Test
    void aWorkerOfTheChildsQueueRelaysAnEndADeadWorkerLeftInTheOutbox() {
        relay.add(flow().get(0));
        relay.add(flow().get(1));
        KeyScheme k = new KeyScheme("bp", pages);
        redisson.getList(RedisCalls.plain(k.waitList())).remove("p1");
        redisson.getScoredSortedSet(RedisCalls.plain(k.completed())).add(1, "p1");
        redisson.getList(RedisCalls.plain(k.flowOutbox())).add("{\"p\":\"" + reports + ":r1\",\"i\":\"0\",\"c\":\"" + pages
                + ":p1\",\"n\":\"render\",\"s\":\"completed\",\"v\":\"\\\"x\\\"\"}");

        startWorker(pages);

        Queue<Integer> parents = Queue.builder(redisson, reports, Integer.class).build();
        await().atMost(Duration.ofSeconds(15)).until(() -> parents.getState("r1") == JobState.WAITING);
        assertThat(redisson.getList(RedisCalls.plain(k.flowOutbox())).size()).isZero();
    }

    @Test
    void aWorkerOfTheRootsQueueCreatesAFlowADeadProducerCommitted() {
        relay.stageAndCommit(reports, "dead-producer", flow());
        Queue<Integer> children = Queue.builder(redisson, pages, Integer.class).build();
        assertThat(children.getJobCounts().total()).isZero();

        startWorker(reports);

        Queue<Integer> parents = Queue.builder(redisson, reports, Integer.class).build();
        await().atMost(Duration.ofSeconds(30)).until(() -> children.getState("p1") == JobState.WAITING);
        assertThat(parents.getState("r1")).isEqualTo(JobState.WAITING_CHILDREN);
    }
}
