package io.bullpen.spring.boot.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.Job;
import io.bullpen.JobScheduler;
import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.RateLimit;
import io.bullpen.client.Bullpen;
import io.bullpen.dashboard.Dashboard;
import io.bullpen.instrument.Instrumentation;
import io.bullpen.spring.QueueRegistry;
import io.bullpen.spring.boot.autoconfigure.BullpenAutoConfiguration;
import io.bullpen.spring.boot.autoconfigure.BullpenProperties;
import io.bullpen.spring.boot.autoconfigure.BullpenWorkers;
import io.bullpen.spring.boot.test.TestBeans.BadConcurrency;
import io.bullpen.spring.boot.test.TestBeans.BadCron;
import io.bullpen.spring.boot.test.TestBeans.Invoice;
import io.bullpen.spring.boot.test.TestBeans.Order;
import io.bullpen.spring.boot.test.TestBeans.Producer;
import io.bullpen.spring.boot.test.TestBeans.SchedulerWithoutData;
import io.bullpen.spring.boot.test.TestBeans.Shipping;
import io.bullpen.spring.boot.test.TestBeans.Slow;
import io.bullpen.spring.boot.test.TestBeans.TwoParameters;
import io.bullpen.spring.boot.test.TestBeans.UnknownZone;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.assertj.core.api.InstanceOfAssertFactories;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * A starter against a real Redis, one condition or feature per test: the same tests for both
 * Boot lines (this module's test jar). Each starter's subclass names its health
 * auto-configuration and reads its health indicator, whose packages differ per line.
 */
@BullpenTest
public abstract class BullpenStarterTests {
    private static final AtomicInteger PREFIXES = new AtomicInteger();

    private BullpenTestContext ctx;
    private String prefix;
    /** Over the test's RedissonClient bean (one client for all: quicker than one per context). */
    private ApplicationContextRunner runner;
    /** Without a RedissonClient bean: the client comes from spring.data.redis.*. */
    private ApplicationContextRunner dataRedisRunner;

    /** @return the starter's health auto-configuration class */
    protected abstract Class<?> healthAutoConfiguration();

    /** @return the line's {@code HealthIndicator} type, filtered away to test "no Actuator" */
    protected abstract Class<?> healthIndicatorType();

    /**
     * @param indicator the {@code bullpenHealthIndicator} bean (the line's {@code HealthIndicator})
     * @return the status code of its health now, e.g. "UP"
     */
    protected abstract String healthStatus(Object indicator);

    /**
     * @param indicator the {@code bullpenHealthIndicator} bean
     * @return the details of its health now
     */
    protected abstract Map<String, Object> healthDetails(Object indicator);

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        ctx.redis().assumeNotCluster("spring.data.redis.host/port name one server");
        this.ctx = ctx;
        // Each test its own key prefix, so the fixed queue names of the beans never meet.
        prefix = "t" + PREFIXES.incrementAndGet();
        dataRedisRunner = new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(BullpenAutoConfiguration.class,
                        healthAutoConfiguration()))
                .withPropertyValues("spring.data.redis.host=" + ctx.redis().host(),
                        "spring.data.redis.port=" + ctx.redis().port(), "bullpen.prefix=" + prefix,
                        "bullpen.worker.shutdown-timeout=2s");
        runner = dataRedisRunner.withBean("redisson", RedissonClient.class, ctx::redisson);
    }

    private <T> Queue<T> queue(String name, Class<T> type) {
        return Queue.builder(ctx.redisson(), name, type).prefix(prefix).build();
    }

    @Test
    void propertiesBind() {
        runner.withPropertyValues("bullpen.worker.enabled=false", "bullpen.queues.orders.concurrency=3",
                "bullpen.queues.orders.lock-duration=45s", "bullpen.queues.orders.rate-limit=100/1s",
                "bullpen.queues.orders.global-concurrency=7", "bullpen.queues.orders.max-stalled-count=2",
                "bullpen.queues.orders.data-type=" + Order.class.getName(),
                "bullpen.dashboard.read-only=true", "bullpen.metrics.enabled=false").run(context -> {
            assertThat(context).hasNotFailed();
            BullpenProperties p = context.getBean(BullpenProperties.class);
            assertThat(p.getPrefix()).isEqualTo(prefix);
            assertThat(p.getWorker().isEnabled()).isFalse();
            assertThat(p.getWorker().getShutdownTimeout()).isEqualTo(Duration.ofSeconds(2));
            BullpenProperties.QueueSettings orders = p.getQueues().get("orders");
            assertThat(orders.getConcurrency()).isEqualTo(3);
            assertThat(orders.getLockDuration()).isEqualTo(Duration.ofSeconds(45));
            assertThat(orders.getMaxStalledCount()).isEqualTo(2);
            assertThat(orders.getDataType()).isEqualTo(Order.class);
            assertThat(p.getDashboard().isReadOnly()).isTrue();
            assertThat(p.getDashboard().isEnabled()).isFalse();
            assertThat(p.getMetrics().isEnabled()).isFalse();
            assertThat(context.getBean(Bullpen.class).prefix()).isEqualTo(prefix);
            // Queue-level settings are written at startup; data-type alone defines a Queue bean.
            assertThat(queue("orders", Order.class).getRateLimit()).contains(RateLimit.of(100, Duration.ofSeconds(1)));
            assertThat(queue("orders", Order.class).getGlobalConcurrency()).hasValue(7);
            assertThat(context.getBean("ordersQueue", Queue.class).name()).isEqualTo("orders");
        });
    }

    @Test
    void workerMethodsRunJobsAndQueuesInjectByNameAndType() {
        runner.withBean(Shipping.class).withBean(Producer.class).run(context -> {
            assertThat(context).hasNotFailed();
            Producer producer = context.getBean(Producer.class);
            assertThat(producer.orders.name()).isEqualTo("orders");
            assertThat(producer.invoices.name()).isEqualTo("invoices");
            assertThat(producer.orders).isSameAs(context.getBean(QueueRegistry.class).queue("orders", Order.class));

            Job<Order> order = producer.orders.add("ship", new Order("o-1", 42));
            Job<Invoice> invoice = producer.invoices.add("bill", new Invoice("i-7"));

            await().atMost(Duration.ofSeconds(10)).until(() -> producer.orders.getState(order.id()) == JobState.COMPLETED
                    && producer.invoices.getState(invoice.id()) == JobState.COMPLETED);
            assertThat(producer.orders.getJob(order.id()).orElseThrow().returnValue(String.class))
                    .contains("shipped o-1 for 42");
            assertThat(producer.invoices.getJobLogs(invoice.id())).containsExactly("billing i-7");
            assertThat(context.getBean(Shipping.class).billed).contains("i-7");
            // concurrency "${orders.concurrency:2}" resolved by the Environment
            assertThat(context.getBean(BullpenWorkers.class).workers()).hasSize(2);
        });
    }

    @Test
    void schedulerIsUpsertedAtStartup() {
        runner.withBean(Shipping.class).withPropertyValues("bullpen.worker.enabled=true").run(context -> {
            assertThat(context).hasNotFailed();
            List<JobScheduler> schedulers = queue("invoices", Invoice.class).getJobSchedulers();
            assertThat(schedulers).extracting(JobScheduler::id).containsExactly("hourly-invoice");
        });
    }

    @Test
    void workersDisabledStartsNoWorker() {
        runner.withBean(Shipping.class).withPropertyValues("bullpen.worker.enabled=false").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(BullpenWorkers.class).workers()).isEmpty();
            assertThat(context).hasBean("ordersQueue");
        });
    }

    @Test
    void aBadCronFailsTheContextNamingBeanAndMethod() {
        runner.withBean("reportsBean", BadCron.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure())
                    .hasStackTraceContaining("bean 'reportsBean' method BadCron.run(String)")
                    .hasStackTraceContaining("not a cron");
        });
    }

    @Test
    void aSchedulerWithoutDataOnATypedWorkerFailsTheContextNamingIt() {
        runner.withBean("reportsBean", SchedulerWithoutData.class).run(context -> assertThat(context.getStartupFailure())
                .hasStackTraceContaining("bean 'reportsBean' method SchedulerWithoutData.run(String)")
                .hasStackTraceContaining("job scheduler \"daily-report\"")
                .hasStackTraceContaining("no data (null)"));
    }

    @Test
    void anUnknownZoneAnImpossibleSignatureOrABadConcurrencyFailTheContext() {
        runner.withBean("zoned", UnknownZone.class).run(context -> assertThat(context.getStartupFailure())
                .hasStackTraceContaining("bean 'zoned' method UnknownZone.run(String)")
                .hasStackTraceContaining("unknown zone \"Mars/Olympus\""));
        runner.withBean("two", TwoParameters.class).run(context -> assertThat(context.getStartupFailure())
                .hasStackTraceContaining("bean 'two' method TwoParameters.run(String, String)")
                .hasStackTraceContaining("exactly one parameter"));
        runner.withBean("many", BadConcurrency.class).run(context -> assertThat(context.getStartupFailure())
                .hasStackTraceContaining("bean 'many' method BadConcurrency.run(String)")
                .hasStackTraceContaining("concurrency must be a number but was \"many\""));
    }

    @Test
    void aRedissonClientBeanIsUsedAsIs() {
        RedissonClient own = ctx.redis().newClient();
        try {
            dataRedisRunner.withBean("myRedis", RedissonClient.class, () -> own).run(context -> {
                assertThat(context).hasNotFailed();
                assertThat(context.getBean(Bullpen.class).redisson()).isSameAs(own);
                assertThat(context).doesNotHaveBean("bullpenRedissonClient");
            });
            assertThat(own.isShutdown()).as("the application's client is not shut down by Bullpen").isFalse();
        } finally {
            own.shutdown();
        }
    }

    @Test
    void springDataRedisDatabaseIsUsed() {
        dataRedisRunner.withBean(Producer.class).withBean(Shipping.class)
                .withPropertyValues("spring.data.redis.database=3", "bullpen.worker.enabled=false").run(context -> {
                    assertThat(context).hasBean("bullpenRedissonClient");
                    context.getBean(Producer.class).orders.add("x", new Order("o", 1));
                    assertThat(queue("orders", Order.class).getJobCounts().waiting()).as("database 0").isZero();
                    RedissonClient redisson = context.getBean(RedissonClient.class);
                    assertThat(redisson.getKeys().getKeysStream().anyMatch(k -> k.startsWith(prefix + ":{orders}")))
                            .isTrue();
                });
    }

    @Test
    void healthIsUpThenOutOfServiceWhileDrainingAndTheRunningJobIsHandedBack() throws Exception {
        var run = runner.withBean(Slow.class);
        run.run(context -> {
            assertThat(context).hasNotFailed();
            Object indicator = context.getBean("bullpenHealthIndicator");
            assertThat(healthStatus(indicator)).isEqualTo("UP");
            assertThat(healthDetails(indicator).get("queues")).asInstanceOf(InstanceOfAssertFactories.MAP).containsKey("slow");

            Queue<String> slow = queue("slow", String.class);
            Job<String> job = slow.add("s", "data");
            assertThat(context.getBean(Slow.class).started.await(10, TimeUnit.SECONDS)).isTrue();

            Thread closer = new Thread(context::close);
            closer.start();
            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50))
                    .until(() -> healthStatus(indicator).equals("OUT_OF_SERVICE"));
            closer.join(15_000);
            assertThat(closer.isAlive()).isFalse();

            // Handed back at once by the close timeout, not left to its 30 s lock.
            assertThat(slow.getState(job.id())).isEqualTo(JobState.WAITING);
            assertThat(slow.getJob(job.id()).orElseThrow().stalledCount()).isZero();
            ctx.assertInvariant(prefix, "slow");
        });
    }

    @Test
    void theDashboardServesOnItsOwnPortWhenEnabled() {
        runner.withPropertyValues("bullpen.dashboard.enabled=true", "bullpen.dashboard.port=0",
                "bullpen.dashboard.read-only=true").run(context -> {
            assertThat(context).hasNotFailed();
            Dashboard dashboard = context.getBean(Dashboard.class);
            HttpResponse<String> config = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create(dashboard.url() + "api/config")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(config.statusCode()).isEqualTo(200);
            assertThat(config.body()).contains("\"readOnly\":true");
        });
        runner.run(context -> assertThat(context).doesNotHaveBean(Dashboard.class));
    }

    @Test
    void withoutActuatorOrWithTheIndicatorOffThereIsNoHealthIndicatorButBullpenWorks() {
        runner.withClassLoader(new FilteredClassLoader(healthIndicatorType())).run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(Bullpen.class).doesNotHaveBean("bullpenHealthIndicator");
        });
        runner.withPropertyValues("management.health.bullpen.enabled=false").run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(Bullpen.class).doesNotHaveBean("bullpenHealthIndicator");
        });
    }

    @Test
    void instrumentationBeansObserveTheWorkers() {
        List<String> started = new CopyOnWriteArrayList<>();
        Instrumentation recording = new Instrumentation() {
            @Override
            public void workerStarted(String queue, String worker) {
                started.add(queue);
            }
        };
        runner.withBean(Slow.class).withBean("recording", Instrumentation.class, () -> recording).run(context -> {
            assertThat(context).hasNotFailed();
            await().atMost(Duration.ofSeconds(5)).until(() -> started.contains("slow"));
        });
    }
}
