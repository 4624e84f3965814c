package io.bullpen.internal;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.bullpen.Queue;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.RedisKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.redisson.api.redisnode.RedisNodes;
import org.slf4j.LoggerFactory;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

@BullpenTest
class RedisChecksTest {
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
    void warnsOnceWhenRedisMayEvictJobs(BullpenTestContext ctx) {
        // Changing server config is only fair on a server this test class owns.
        assumeTrue(ctx.redis().kind() != RedisKind.EXTERNAL, "needs its own server");
        ctx.redis().assumeNotCluster("CONFIG SET on one server (RedisNodes.SINGLE)");
        RedissonClient client = ctx.redis().newClient();
        setPolicy(client, "allkeys-lru");
        try {
            Queue<String> q = Queue.builder(client, ctx.queueName(), String.class).build();
            q.add("a", "x");
            q.add("b", "y");
            Queue.builder(client, ctx.newQueueName(), String.class).build().add("c", "z");
        } finally {
            setPolicy(client, "noeviction");
        }

        assertThat(appender.list).singleElement().satisfies(e -> {
            assertThat(e.getLevel().toString()).isEqualTo("WARN");
            assertThat(e.getFormattedMessage()).contains("allkeys-lru").contains("noeviction");
        });
    }

    @Test
    void staysQuietOnNoeviction(BullpenTestContext ctx) {
        RedissonClient client = ctx.redis().newClient();

        Queue.builder(client, ctx.queueName(), String.class).build().add("a", "x");

        assertThat(appender.list).isEmpty();
    }
}
