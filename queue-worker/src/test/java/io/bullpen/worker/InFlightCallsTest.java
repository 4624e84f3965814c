package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.InetSocketAddress;
import java.util.List;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The resend logic of {@link InFlightCalls}, with calls as plain futures the test completes. */
class InFlightCallsTest {
    private static final InetSocketAddress SERVER = InetSocketAddress.createUnresolved("redis", 6379);

    private final InFlightCalls calls = new InFlightCalls();
    private final List<CompletableFuture<String>> attempts = new CopyOnWriteArrayList<>();

    private CompletableFuture<String> send() {
        CompletableFuture<String> attempt = new CompletableFuture<>();
        attempts.add(attempt);
        return attempt;
    }

    @Test
    void aCallUnderWayWhenTheServerIsLostIsSentAgainWhenItIsBackAndOnlyTheNewReplyCounts() {
        List<String> orphans = new CopyOnWriteArrayList<>();
        CompletableFuture<String> result = calls.call(this::send, orphans::add);

        calls.lost(SERVER);
        assertThat(attempts).hasSize(1);
        calls.reconnected(SERVER);
        assertThat(attempts).hasSize(2);

        attempts.get(1).complete("second");
        attempts.get(0).complete("first, late");
        assertThat(result).isCompletedWithValue("second");
        assertThat(orphans).containsExactly("first, late");
        assertThat(calls.size()).isZero();
    }

    @Test
    void aCallSentWhileTheServerIsAwayIsSentAgainWhenItIsBack() {
        calls.lost(SERVER);
        CompletableFuture<String> result = calls.call(this::send);

        calls.reconnected(SERVER);
        attempts.get(1).complete("ok");

        assertThat(attempts).hasSize(2);
        assertThat(result).isCompletedWithValue("ok");
    }

    @Test
    void aCallThatAnsweredIsNotSentAgain() {
        CompletableFuture<String> done = calls.call(this::send);
        attempts.get(0).complete("done");
        calls.lost(SERVER);
        calls.reconnected(SERVER);

        assertThat(attempts).hasSize(1);
        assertThat(done).isCompletedWithValue("done");
    }

    @Test
    void justAfterAReconnectACallWithoutAReplyIsSentAgainUntilOneAnswers() {
        calls.lost(SERVER);
        calls.reconnected(SERVER);
        CompletableFuture<String> result = calls.call(this::send);

        await().atMost(Duration.ofSeconds(2)).until(() -> attempts.size() >= 2);
        attempts.get(attempts.size() - 1).complete("answered");
        assertThat(result).isCompletedWithValue("answered");
        int sent = attempts.size();
        await().during(Duration.ofMillis(700)).atMost(Duration.ofSeconds(2)).until(() -> attempts.size() == sent);
    }

    @Test
    void withoutAReconnectASlowCallIsLeftAlone() {
        CompletableFuture<String> result = calls.call(this::send);

        await().during(Duration.ofMillis(700)).atMost(Duration.ofSeconds(2)).until(() -> attempts.size() == 1);
        assertThat(result).isNotDone();
    }

    @Test
    void aFailureOfTheCurrentAttemptFailsTheCallAndHooksRunAtEachReconnect() {
        AtomicInteger hooks = new AtomicInteger();
        calls.onReconnect(hooks::incrementAndGet);
        CompletableFuture<String> result = calls.call(this::send);

        attempts.get(0).completeExceptionally(new IllegalStateException("refused"));
        calls.lost(SERVER);
        calls.reconnected(SERVER);

        assertThat(result).isCompletedExceptionally();
        assertThat(attempts).hasSize(1);
        assertThat(hooks).hasValue(1);
        assertThat(calls.away()).isFalse();
    }
}
