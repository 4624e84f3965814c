package io.bullpen.spring.boot.test;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.bullpen.JobScheduler;
import io.bullpen.JobTemplate;
import io.bullpen.Queue;
import io.bullpen.RateLimit;
import io.bullpen.Repeat;
import io.bullpen.spring.boot.test.declared.DeclaringApplication;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.event.ApplicationPreparedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * What a Spring application declares (bullpen.queues.* settings, @BullpenScheduler) it owns: a
 * real application started twice against the same Redis, the second time without the
 * declaration. Each starter subclasses it to run it on its Boot line.
 */
@BullpenTest
public abstract class DeclaredSettingsTests {
    private static final String LOGGER = "io.bullpen.spring.boot.autoconfigure.DeclaredConfiguration";
    private static final RateLimit TWO_PER_SECOND = RateLimit.of(2, Duration.ofSeconds(1));
    private final List<String> infoLines = new ArrayList<>();

    @Test
    void settingsAndASchedulerTheConfigurationNoLongerDeclaresAreRemovedAtTheNextStart(BullpenTestContext ctx) {
        ctx.redis().assumeNotCluster("spring.data.redis.host/port name one server");
        String x = ctx.queueName() + "-x";
        String ticks = ctx.queueName() + "-ticks";
        // Another owner's setting and one set by hand: never touched.
        Queue<Object> other = queue(ctx, ctx.queueName() + "-other");
        other.declaredBy("billing").setRateLimit(TWO_PER_SECOND);
        Queue<Object> byHand = queue(ctx, ctx.queueName() + "-hand");
        byHand.setGlobalConcurrency(7);

        run(ctx, "spring.application.name=shop", "ticker.declared=true", "ticker.queue=" + ticks,
                "bullpen.queues." + x + ".rate-limit=2/1s", "bullpen.queues." + x + ".global-concurrency=2").close();
        assertThat(queue(ctx, x).getRateLimit()).contains(TWO_PER_SECOND);
        assertThat(queue(ctx, x).getGlobalConcurrency()).hasValue(2);
        assertThat(queue(ctx, ticks).getJobSchedulers()).extracting(JobScheduler::id).containsExactly("t");

        infoLines.clear();
        run(ctx, "spring.application.name=shop", "ticker.queue=" + ticks).close();

        assertThat(queue(ctx, x).getRateLimit()).isEmpty();
        assertThat(queue(ctx, x).getGlobalConcurrency()).isEmpty();
        assertThat(queue(ctx, ticks).getJobSchedulers()).isEmpty();
        assertThat(queue(ctx, ticks).getJobCounts().delayed()).as("the pending iteration went with it").isZero();
        assertThat(other.getRateLimit()).contains(TWO_PER_SECOND);
        assertThat(byHand.getGlobalConcurrency()).hasValue(7);
        assertThat(infoLines).hasSize(3);
        assertThat(infoLines).anySatisfy(l -> assertThat(l).contains("rate limit 2/1s", x, "shop"));
        assertThat(infoLines).anySatisfy(l -> assertThat(l).contains("global concurrency 2", x));
        assertThat(infoLines).anySatisfy(l -> assertThat(l).contains("job scheduler t", ticks));
    }

    @Test
    void bullpenConfigOwnerNamesTheOwnerInsteadOfTheApplicationName(BullpenTestContext ctx) {
        ctx.redis().assumeNotCluster("spring.data.redis.host/port name one server");
        String x = ctx.queueName() + "-x";
        run(ctx, "spring.application.name=shop-a", "bullpen.config-owner=shop", "ticker.queue=unused",
                "bullpen.queues." + x + ".rate-limit=2/1s").close();
        run(ctx, "spring.application.name=shop-b", "ticker.queue=unused").close();
        assertThat(queue(ctx, x).getRateLimit()).as("shop-b is not its owner").contains(TWO_PER_SECOND);

        run(ctx, "spring.application.name=shop-b", "bullpen.config-owner=shop", "bullpen.remove-undeclared=false",
                "ticker.queue=unused").close();
        assertThat(queue(ctx, x).getRateLimit()).as("remove-undeclared=false").contains(TWO_PER_SECOND);

        run(ctx, "spring.application.name=shop-b", "bullpen.config-owner=shop", "ticker.queue=unused").close();
        assertThat(queue(ctx, x).getRateLimit()).isEmpty();
    }

    @Test
    void aSettingOrSchedulerWrittenThroughTheApiLosesTheMarkAndSurvives(BullpenTestContext ctx) {
        ctx.redis().assumeNotCluster("spring.data.redis.host/port name one server");
        String x = ctx.queueName() + "-x";
        String ticks = ctx.queueName() + "-ticks";
        try (ConfigurableApplicationContext app = run(ctx, "spring.application.name=shop", "ticker.declared=true",
                "ticker.queue=" + ticks, "bullpen.queues." + x + ".rate-limit=2/1s")) {
            queue(ctx, x).setRateLimit(RateLimit.of(5, Duration.ofSeconds(1)));
            Queue<String> typed = Queue.builder(ctx.redisson(), ticks, String.class).build();
            typed.upsertJobScheduler("t", Repeat.every(Duration.ofSeconds(2)), JobTemplate.of("t", "tick"));
        }
        run(ctx, "spring.application.name=shop", "ticker.queue=" + ticks).close();

        assertThat(queue(ctx, x).getRateLimit()).contains(RateLimit.of(5, Duration.ofSeconds(1)));
        assertThat(queue(ctx, ticks).getJobSchedulers()).extracting(JobScheduler::id).containsExactly("t");
    }

    @Test
    void anInstanceWhoseWorkersDoNotRunStillDeclaresItsSchedulers(BullpenTestContext ctx) {
        ctx.redis().assumeNotCluster("spring.data.redis.host/port name one server");
        String ticks = ctx.queueName() + "-ticks";
        run(ctx, "spring.application.name=shop", "ticker.declared=true", "ticker.queue=" + ticks).close();
        run(ctx, "spring.application.name=shop", "ticker.declared=true", "ticker.queue=" + ticks,
                "bullpen.worker.enabled=false").close();
        assertThat(queue(ctx, ticks).getJobSchedulers()).extracting(JobScheduler::id).containsExactly("t");
    }

    @Test
    void withoutAnOwnerNothingIsMarkedNorRemovedAndOneLineSaysSo(BullpenTestContext ctx) {
        ctx.redis().assumeNotCluster("spring.data.redis.host/port name one server");
        String x = ctx.queueName() + "-x";
        run(ctx, "ticker.queue=unused", "bullpen.queues." + x + ".rate-limit=2/1s").close();
        infoLines.clear();
        run(ctx, "ticker.queue=unused").close();
        assertThat(queue(ctx, x).getRateLimit()).contains(TWO_PER_SECOND);
        assertThat(infoLines).singleElement().asString().contains("spring.application.name", "bullpen.config-owner");
    }

    private static Queue<Object> queue(BullpenTestContext ctx, String name) {
        return Queue.builder(ctx.redisson(), name, Object.class).build();
    }

    private ConfigurableApplicationContext run(BullpenTestContext ctx, String... properties) {
        // Attached once the application's logging system is set up (it resets the appenders).
        ApplicationListener<ApplicationPreparedEvent> capture = event -> {
            Logger logger = (Logger) LoggerFactory.getLogger(LOGGER);
            ListAppender<ILoggingEvent> appender = new ListAppender<>() {
                @Override
                protected void append(ILoggingEvent e) {
                    if (e.getLevel() == ch.qos.logback.classic.Level.INFO) {
                        synchronized (infoLines) {
                            infoLines.add(e.getFormattedMessage());
                        }
                    }
                }
            };
            appender.start();
            logger.addAppender(appender);
        };
        return new SpringApplicationBuilder(DeclaringApplication.class)
                .web(WebApplicationType.NONE)
                .listeners(capture)
                .properties("spring.data.redis.host=" + ctx.redis().host(), "spring.data.redis.port=" + ctx.redis().port())
                .properties(properties)
                .run();
    }
}
