package io.bullpen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bullpen.events.DataUpdatedEvent;
import io.bullpen.events.DelayChangedEvent;
import io.bullpen.events.PriorityChangedEvent;
import io.bullpen.events.QueueEvent;
import io.bullpen.internal.EventDecoder;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.QueueSnapshot;
import io.bullpen.testing.SettableClock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Queue.changeDelay, changePriority and updateData through the API: validation, results, typed events. */
@BullpenTest
class QueueJobChangesTest {
    /** Data Jackson cannot serialize: no property it can see. */
    static final class Opaque {
        @SuppressWarnings("unused")
        private final int hidden = 1;
    }

    private Queue<Object> queue;
    private SettableClock clock;
    private BullpenTestContext ctx;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        this.ctx = ctx;
        this.clock = ctx.clock();
        this.queue = Queue.builder(ctx.redisson(), ctx.queueName(), Object.class).clock(clock).maxPayloadBytes(100).build();
    }

    @Test
    void badInputIsRefusedBeforeAnythingIsWritten() {
        Job<Object> delayed = queue.add("d", "x", JobOptions.builder().delay(Duration.ofMinutes(1)).build());
        Job<Object> waiting = queue.add("w", "x");
        QueueSnapshot before = ctx.snapshot(queue.name());

        assertThatThrownBy(() -> queue.changeDelay(delayed.id(), Duration.ofMillis(-5)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-5ms");
        assertThatThrownBy(() -> queue.changePriority(waiting.id(), -1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("priority").hasMessageContaining("-1");
        assertThatThrownBy(() -> queue.changePriority(waiting.id(), JobOptions.MAX_PRIORITY + 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(Integer.toString(JobOptions.MAX_PRIORITY + 1));
        assertThatThrownBy(() -> queue.updateData(waiting.id(), "y".repeat(200)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("over the limit of 100 bytes");
        assertThatThrownBy(() -> queue.updateData(waiting.id(), new Opaque()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(Opaque.class.getName());
        assertThatThrownBy(() -> queue.changeDelay(" ", Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\" \"");

        assertThat(ctx.snapshot(queue.name()).toString()).isEqualTo(before.toString());
    }

    @Test
    void changesReturnTheNewStateAndRefusalsAreTyped() {
        Job<Object> delayed = queue.add("d", "x", JobOptions.builder().delay(Duration.ofMinutes(1)).build());
        Job<Object> waiting = queue.add("w", "x");

        assertThat(queue.changeDelay(delayed.id(), Duration.ofSeconds(5))).isEqualTo(JobState.DELAYED);
        assertThat(queue.getJob(delayed.id()).orElseThrow().delay()).isEqualTo(Duration.ofSeconds(5));
        assertThat(queue.changePriority(waiting.id(), 7)).isEqualTo(JobState.PRIORITIZED);
        assertThat(queue.getJob(waiting.id()).orElseThrow().priority()).isEqualTo(7);
        queue.updateData(waiting.id(), List.of(1, 2));
        assertThat(queue.getJob(waiting.id()).orElseThrow().dataJson()).isEqualTo("[1,2]");
        assertThat(queue.changeDelay(delayed.id(), Duration.ZERO)).isEqualTo(JobState.WAITING);

        assertThatThrownBy(() -> queue.changeDelay(waiting.id(), Duration.ofSeconds(1)))
                .isInstanceOf(JobStateException.class)
                .hasMessage("cannot change the delay of job " + waiting.id() + " in queue " + queue.name()
                        + ": it is not delayed (it is prioritized)");
        assertThatThrownBy(() -> queue.changePriority("nope", 1)).isInstanceOf(JobNotFoundException.class)
                .hasMessageContaining("nope");
        assertThatThrownBy(() -> queue.updateData("nope", 1)).isInstanceOf(JobNotFoundException.class);
    }

    @Test
    void theChangeEventsDecodeToTheirRecords() {
        Job<Object> delayed = queue.add("d", "x", JobOptions.builder().delay(Duration.ofMinutes(1)).build());
        queue.changeDelay(delayed.id(), Duration.ofSeconds(3));
        queue.changeDelay(delayed.id(), Duration.ZERO);
        queue.changePriority(delayed.id(), 2);
        queue.updateData(delayed.id(), "y");

        List<Map<String, String>> stream = ctx.snapshot(queue.name()).events();
        List<QueueEvent> events = stream.stream().map(f -> EventDecoder.decode("1-0", f)).toList();
        assertThat(events).filteredOn(DelayChangedEvent.class::isInstance).map(DelayChangedEvent.class::cast)
                .extracting(DelayChangedEvent::delay)
                .containsExactly(Duration.ofSeconds(3), Duration.ZERO);
        assertThat(events).filteredOn(DelayChangedEvent.class::isInstance).map(DelayChangedEvent.class::cast)
                .first().satisfies(e -> assertThat(e.due().toEpochMilli()).isEqualTo(clock.millis() + 3000));
        assertThat(events).filteredOn(PriorityChangedEvent.class::isInstance).map(PriorityChangedEvent.class::cast)
                .extracting(PriorityChangedEvent::priority).containsExactly(2);
        assertThat(events).filteredOn(DataUpdatedEvent.class::isInstance).extracting(QueueEvent::jobId)
                .containsExactly(delayed.id());
    }
}
