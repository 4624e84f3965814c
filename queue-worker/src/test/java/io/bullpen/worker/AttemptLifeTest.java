package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bullpen.worker.AttemptLife.Stage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The attempt's state machine: each allowed move works, each other move throws. */
class AttemptLifeTest {

    /** Every move the table does not allow, one case each. */
    static Stream<Arguments> illegalMoves() {
        List<Arguments> out = new ArrayList<>();
        for (Stage from : Stage.values()) {
            for (Stage to : Stage.values()) {
                if (!AttemptLife.ALLOWED.get(from).contains(to)) {
                    out.add(Arguments.of(from, to));
                }
            }
        }
        return out.stream();
    }

    static Stream<Arguments> legalMoves() {
        List<Arguments> out = new ArrayList<>();
        for (Stage from : Stage.values()) {
            for (Stage to : AttemptLife.ALLOWED.get(from)) {
                out.add(Arguments.of(from, to));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} -> {1} throws")
    @MethodSource("illegalMoves")
    void anIllegalMoveThrowsAndLeavesTheStage(Stage from, Stage to) {
        AttemptLife life = at(from);
        assertThatThrownBy(() -> life.move(to))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("job j1 cannot move from " + from + " to " + to);
        assertThat(life.stage()).isEqualTo(from);
    }

    @ParameterizedTest(name = "claim {0} -> {1} throws")
    @MethodSource("illegalMoves")
    void anIllegalClaimThrowsWhateverTheStage(Stage from, Stage to) {
        AttemptLife life = AttemptLife.taken("j1");
        assertThatThrownBy(() -> life.claim(from, to)).isInstanceOf(IllegalStateException.class);
        assertThat(life.stage()).isEqualTo(Stage.TAKEN);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("legalMoves")
    void aLegalMoveChangesTheStage(Stage from, Stage to) {
        AttemptLife life = at(from);
        life.move(to);
        assertThat(life.stage()).isEqualTo(to);
    }

    @Test
    void finalStagesHaveNoWayOut() {
        assertThat(AttemptLife.ALLOWED.get(Stage.SETTLED)).isEmpty();
        assertThat(AttemptLife.ALLOWED.get(Stage.HANDED_BACK)).isEmpty();
        assertThat(AttemptLife.ALLOWED.get(Stage.DROPPED)).isEmpty();
    }

    @Test
    void everyStageIsReachableFromATake() {
        assertThat(reachable(Stage.TAKEN, Stage.BUFFERED)).containsExactlyInAnyOrder(Stage.values());
    }

    @Test
    void aClaimFromAStageTheJobLeftLosesWithoutThrowing() {
        AttemptLife life = AttemptLife.taken("j1");
        life.move(Stage.RUNNING);
        assertThat(life.claim(Stage.RUNNING, Stage.FINISHING)).isTrue();
        // The timeout and the processor's return race for the outcome: the second one loses.
        assertThat(life.claim(Stage.RUNNING, Stage.FINISHING)).isFalse();
        assertThat(life.claim(Stage.RUNNING, Stage.ABANDONED)).isFalse();
        assertThat(life.stage()).isEqualTo(Stage.FINISHING);
    }

    @Test
    void ofRacingClaimsExactlyOneWins() throws Exception {
        for (int round = 0; round < 200; round++) {
            AttemptLife life = AttemptLife.taken("j" + round);
            life.move(Stage.RUNNING);
            AtomicInteger wins = new AtomicInteger();
            CountDownLatch go = new CountDownLatch(1);
            Thread returned = new Thread(() -> claimAfter(go, life, Stage.FINISHING, wins));
            Thread timedOut = new Thread(() -> claimAfter(go, life, Stage.FINISHING, wins));
            Thread abandoned = new Thread(() -> claimAfter(go, life, Stage.ABANDONED, wins));
            returned.start();
            timedOut.start();
            abandoned.start();
            go.countDown();
            returned.join();
            timedOut.join();
            abandoned.join();
            assertThat(wins).hasValue(1);
        }
    }

    @Test
    void aForcedCloseAbandonsAnAttemptWhoseProcessorHasNotStartedYet() {
        // A job handed to the executor (or to a batch) that has not started when close gives up.
        ActiveJob<String> attempt = new ActiveJob<>(io.bullpen.internal.WireFormat.job("j1",
                java.util.Map.of("name", "n", "data", "\"x\"", "opts", "{}", "timestamp", "1"),
                io.bullpen.internal.JsonCodec.type(String.class)), "token", null, AttemptLife.taken("j1"));
        attempt.abandon();
        assertThat(attempt.abandoned()).isTrue();
        attempt.running(Thread.currentThread());
        assertThat(attempt.life.stage()).as("it stays abandoned when its processor starts").isEqualTo(Stage.ABANDONED);
    }

    @Test
    void outcomeClaimedFromFinishingOn() {
        AttemptLife life = AttemptLife.taken("j1");
        assertThat(life.outcomeClaimed()).isFalse();
        life.move(Stage.RUNNING);
        life.move(Stage.ABANDONED);
        assertThat(life.outcomeClaimed()).isFalse();
        life.move(Stage.FINISHING);
        assertThat(life.outcomeClaimed()).isTrue();
        life.move(Stage.SETTLED);
        assertThat(life.outcomeClaimed()).isTrue();
    }

    private static void claimAfter(CountDownLatch go, AttemptLife life, Stage to, AtomicInteger wins) {
        try {
            go.await();
        } catch (InterruptedException e) {
            return;
        }
        if (life.claim(Stage.RUNNING, to)) {
            wins.incrementAndGet();
        }
    }

    /** A life in {@code stage}, reached by allowed moves only. */
    private static AttemptLife at(Stage stage) {
        List<Stage> path = pathTo(stage);
        AttemptLife life = path.get(0) == Stage.BUFFERED ? AttemptLife.buffered("j1") : AttemptLife.taken("j1");
        for (Stage s : path.subList(1, path.size())) {
            life.move(s);
        }
        assertThat(life.stage()).isEqualTo(stage);
        return life;
    }

    private static List<Stage> pathTo(Stage target) {
        for (Stage start : List.of(Stage.TAKEN, Stage.BUFFERED)) {
            List<Stage> path = search(start, target, new ArrayList<>(List.of(start)));
            if (path != null) {
                return path;
            }
        }
        throw new AssertionError("no path to " + target);
    }

    private static List<Stage> search(Stage at, Stage target, List<Stage> path) {
        if (at == target) {
            return path;
        }
        for (Stage next : AttemptLife.ALLOWED.get(at)) {
            if (!path.contains(next)) {
                path.add(next);
                List<Stage> found = search(next, target, path);
                if (found != null) {
                    return found;
                }
                path.remove(path.size() - 1);
            }
        }
        return null;
    }

    private static List<Stage> reachable(Stage... starts) {
        List<Stage> seen = new ArrayList<>(List.of(starts));
        for (int i = 0; i < seen.size(); i++) {
            for (Stage next : AttemptLife.ALLOWED.get(seen.get(i))) {
                if (!seen.contains(next)) {
                    seen.add(next);
                }
            }
        }
        return seen;
    }
}
