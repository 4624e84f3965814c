package io.bullpen.spring.boot.test;

import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.Backoff;
import io.bullpen.Job;
import io.bullpen.JobOptions;
import io.bullpen.Queue;
import io.bullpen.Retention;
import io.bullpen.spring.QueueRegistry;
import io.bullpen.spring.boot.autoconfigure.BullpenAutoConfiguration;
import io.bullpen.spring.boot.test.TestBeans.Order;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@code bullpen.queues.<name>.default-job-options.*}: the jobs the queue beans add carry them in Redis.
 * Shared by both starters (each runs it under its Boot line with {@code @BullpenTest}).
 */
public abstract class DefaultJobOptionsPropertiesTests {
    private BullpenTestContext ctx;
    private ApplicationContextRunner runner;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        this.ctx = ctx;
        runner = new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(BullpenAutoConfiguration.class))
                .withBean("redisson", RedissonClient.class, ctx::redisson)
                .withPropertyValues("bullpen.prefix=djo", "bullpen.worker.enabled=false",
                        "bullpen.queues.orders.data-type=" + Order.class.getName());
    }

    @Test
    void theJobsOfAQueueBeanCarryTheDefaultJobOptionsInRedis() {
        runner.withPropertyValues("bullpen.queues.orders.default-job-options.attempts=4",
                "bullpen.queues.orders.default-job-options.backoff.type=exponential",
                "bullpen.queues.orders.default-job-options.backoff.delay=1s",
                "bullpen.queues.orders.default-job-options.backoff.max-delay=1m",
                "bullpen.queues.orders.default-job-options.remove-on-complete.count=100",
                "bullpen.queues.orders.default-job-options.remove-on-fail.age=7d",
                "bullpen.queues.orders.default-job-options.timeout=30s").run(context -> {
            assertThat(context).hasNotFailed();
            @SuppressWarnings("unchecked")
            Queue<Order> orders = context.getBean("ordersQueue", Queue.class);
            Job<Order> added = orders.add("ship", new Order("o-1", 1));
            Job<Order> own = context.getBean(QueueRegistry.class).queue("orders", Order.class)
                    .add("ship", new Order("o-2", 2), JobOptions.builder().attempts(2).build());

            // Read through a queue without defaults: what is stored in Redis.
            Queue<Order> plain = Queue.builder(ctx.redisson(), "orders", Order.class).prefix("djo").build();
            JobOptions stored = plain.getJob(added.id()).orElseThrow().options();
            assertThat(stored).isEqualTo(JobOptions.builder().attempts(4)
                    .backoff(Backoff.exponential(Duration.ofSeconds(1)).maxDelay(Duration.ofMinutes(1)))
                    .removeOnComplete(Retention.keepLast(100)).removeOnFail(Retention.keepFor(Duration.ofDays(7)))
                    .timeout(Duration.ofSeconds(30)).build());
            JobOptions overridden = plain.getJob(own.id()).orElseThrow().options();
            assertThat(overridden.attempts()).isEqualTo(2);
            assertThat(overridden.timeout()).contains(Duration.ofSeconds(30));
        });
    }

    @Test
    void theFlowProducerBeanAddsFlowJobsWithTheQueuesDefaultJobOptions() {
        runner.withPropertyValues("bullpen.queues.orders.default-job-options.attempts=4").run(context -> {
            assertThat(context).hasNotFailed();
            io.bullpen.flow.JobNode root = context.getBean(io.bullpen.flow.FlowProducer.class).add(
                    io.bullpen.flow.FlowJob.builder("orders", "confirm", new Order("o-3", 3))
                            .child(io.bullpen.flow.FlowJob.builder("orders", "charge", new Order("o-3", 3)).build()).build());

            Queue<Order> plain = Queue.builder(ctx.redisson(), "orders", Order.class).prefix("djo").build();
            assertThat(plain.getJob(root.id()).orElseThrow().options().attempts()).isEqualTo(4);
            assertThat(plain.getState(root.id())).isEqualTo(io.bullpen.JobState.WAITING_CHILDREN);
        });
    }

    @Test
    void aBadDefaultFailsTheContextNamingTheProperty() {
        runner.withPropertyValues("bullpen.queues.orders.default-job-options.attempts=0").run(context ->
                assertThat(context.getStartupFailure())
                        .hasStackTraceContaining("bullpen.queues.orders.default-job-options: attempts must be >= 1 but was 0"));
        runner.withPropertyValues("bullpen.queues.orders.default-job-options.backoff.type=linear",
                "bullpen.queues.orders.default-job-options.backoff.delay=1s").run(context ->
                assertThat(context.getStartupFailure())
                        .hasStackTraceContaining("backoff.type must be fixed, exponential or schedule but was \"linear\""));
    }
}
