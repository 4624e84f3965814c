package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.bullpen.QueueEvents;
import io.bullpen.internal.RedisChecks;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.RedisKind;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.redisson.api.redisnode.RedisNodes;
import org.slf4j.LoggerFactory;

/**
 * Workers and event listeners check the server's eviction policy as queues do: a warning once
 * per client, whichever of them starts first.
 */
@BullpenTest
class WorkerRedisChecksTest {
    private final Logger logger = (Logger) LoggerFactory.getLogger(RedisChecks.class);
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    @BeforeEach
    void capture() {
        appender.start();
        logger.addAppender(appender);
    }

    @AfterEach
    void release() {
        logger.detachAppender(appender);
    }

    private static void setPolicy(RedissonClient client, String policy) {
        client.getRedisNodes(RedisNodes.SINGLE).getInstance().setConfig("maxmemory-policy", policy);
    }

    @Test
    void workersAndListenersWarnOncePerClientWhenRedisMayEvictJobs(BullpenTestContext ctx) {
        // Changing server config is only fair on a server this test class owns.
        assumeTrue(ctx.redis().kind() != RedisKind.EXTERNAL, "needs its own server");
        ctx.redis().assumeNotCluster("CONFIG SET on one server (RedisNodes.SINGLE)");
        RedissonClient client = ctx.redis().newClient();
        setPolicy(client, "allkeys-lru");
        try (Worker<String, Object> first = worker(client, ctx.queueName()).start();
                Worker<String, Object> second = worker(client, ctx.newQueueName()).start();
                QueueEvents events = QueueEvents.builder(client, ctx.queueName()).build().start()) {
            await().atMost(Duration.ofSeconds(10)).until(() -> appender.list.size() >= 1);
            await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(() -> appender.list.size() == 1);
            assertThat(appender.list).singleElement().satisfies(e -> {
                assertThat(e.getLevel().toString()).isEqualTo("WARN");
                assertThat(e.getFormattedMessage()).contains("allkeys-lru").contains("noeviction");
            });

            RedissonClient listenerClient = ctx.redis().newClient();
            try (QueueEvents other = QueueEvents.builder(listenerClient, ctx.queueName()).build().start()) {
                await("a listener on another client warns too").atMost(Duration.ofSeconds(10))
                        .until(() -> appender.list.size() == 2);
            }
        } finally {
            setPolicy(client, "noeviction");
        }
    }

    private static Worker<String, Object> worker(RedissonClient client, String queue) {
        return Worker.builder(client, queue, String.class).processor(c -> null).build();
    }
}
