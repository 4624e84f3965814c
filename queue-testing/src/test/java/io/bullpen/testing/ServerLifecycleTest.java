package io.bullpen.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;
import org.redisson.api.RedissonClient;

/** Runs probe classes through the JUnit launcher to see what the extension leaves behind after a class. */
class ServerLifecycleTest {

    private static TestExecutionSummary run(Class<?> testClass) {
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(testClass))
                .build();
        Launcher launcher = LauncherFactory.create();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        launcher.execute(request, listener);
        return listener.getSummary();
    }

    @Test
    void eachClassGetsItsOwnServerWhichIsStoppedAfterTheClass() {
        Probe.SEEN.clear();
        OtherProbe.SEEN.clear();

        TestExecutionSummary first = run(Probe.class);
        TestExecutionSummary second = run(OtherProbe.class);

        assertThat(first.getTestsSucceededCount()).isEqualTo(2);
        assertThat(first.getTotalFailureCount()).isZero();
        assertThat(second.getTestsSucceededCount()).isEqualTo(1);
        TestRedis firstRedis = Probe.SEEN.get(0);
        assertThat(Probe.SEEN).containsExactly(firstRedis, firstRedis);
        assertThat(OtherProbe.SEEN).hasSize(1).doesNotContain(firstRedis);
        assertThat(Probe.CLIENTS).allMatch(RedissonClient::isShutdown);
        if (firstRedis.kind() == RedisKind.PROCESS || firstRedis.kind() == RedisKind.EMBEDDED) {
            assertThat(firstRedis.isRunning()).isFalse();
            assertThat(LocalRedisSupport.answersPing(firstRedis.port())).isFalse();
            assertThat(OtherProbe.SEEN.get(0).port()).isNotEqualTo(firstRedis.port());
        }
    }

    /** A user's test class; static nested, so neither surefire nor Jupiter runs it on its own. */
    @BullpenTest
    static class Probe {
        static final List<TestRedis> SEEN = new ArrayList<>();
        static final List<RedissonClient> CLIENTS = new ArrayList<>();

        @Test
        void first(TestRedis redis, RedissonClient redisson) {
            SEEN.add(redis);
            CLIENTS.add(redisson);
            CLIENTS.add(redis.newClient());
        }

        @Test
        void second(TestRedis redis) {
            SEEN.add(redis);
        }
    }

    /** A second class, which must get a server of its own. */
    @BullpenTest
    static class OtherProbe {
        static final List<TestRedis> SEEN = new ArrayList<>();

        @Test
        void only(TestRedis redis) {
            SEEN.add(redis);
        }
    }
}
