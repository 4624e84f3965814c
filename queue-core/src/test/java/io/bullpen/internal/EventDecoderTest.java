package io.bullpen.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.JobState;
import io.bullpen.events.ActiveEvent;
import io.bullpen.events.AddedEvent;
import io.bullpen.events.CompletedEvent;
import io.bullpen.events.DelayedEvent;
import io.bullpen.events.DrainedEvent;
import io.bullpen.events.FailedEvent;
import io.bullpen.events.PausedEvent;
import io.bullpen.events.QueueEvent;
import io.bullpen.events.ResumedEvent;
import io.bullpen.events.RemovedEvent;
import io.bullpen.events.RetryingEvent;
import io.bullpen.events.StalledEvent;
import io.bullpen.events.UnknownEvent;
import io.bullpen.events.WaitingEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Decoding stream entries without Redis: tolerant of fields and labels from other versions. */
class EventDecoderTest {
    private static final String ID = "1718000000123-4";
    private static final Instant TIME = Instant.ofEpochMilli(1718000000123L);

    private static QueueEvent decode(String... fieldValues) {
        return EventDecoder.decode(ID, fields(fieldValues));
    }

    private static Map<String, String> fields(String... fieldValues) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (int i = 0; i < fieldValues.length; i += 2) {
            fields.put(fieldValues[i], fieldValues[i + 1]);
        }
        return fields;
    }

    @Test
    void anEntryOfSeveralJobsIsOneEventPerJobInOrderWithTheEntrysId() {
        assertThat(EventDecoder.decodeAll(ID, fields("event", "completed", "jobId", "7 order-8 9",
                "returnValue:7", "null", "returnValue:order-8", "{\"a\":[1,2]}", "returnValue:9", "\"x y\"")))
                .containsExactly(new CompletedEvent(ID, TIME, "7", "null"),
                        new CompletedEvent(ID, TIME, "order-8", "{\"a\":[1,2]}"),
                        new CompletedEvent(ID, TIME, "9", "\"x y\""));
        assertThat(EventDecoder.decodeAll(ID, fields("event", "waiting", "jobId", "3 4", "prev", "delayed")))
                .containsExactly(new WaitingEvent(ID, TIME, "3", JobState.DELAYED),
                        new WaitingEvent(ID, TIME, "4", JobState.DELAYED));
        assertThat(EventDecoder.decodeAll(ID, fields("event", "active", "jobId", "5 6")))
                .containsExactly(new ActiveEvent(ID, TIME, "5"), new ActiveEvent(ID, TIME, "6"));
    }

    @Test
    void aFailedEventSaysWhetherTheJobWasCancelled() {
        assertThat(decode("event", "failed", "jobId", "1", "failedReason", "cancelled: bye", "attemptsMade", "0",
                "prev", "waiting", "cancelled", "1"))
                .isEqualTo(new FailedEvent(ID, TIME, "1", "cancelled: bye", 0, true));
        assertThat(decode("event", "failed", "jobId", "2", "failedReason", "boom", "attemptsMade", "3"))
                .isEqualTo(new FailedEvent(ID, TIME, "2", "boom", 3, false));
    }

    @Test
    void aCompletedJobOfAnEntryWithoutItsOwnReturnValueReturnedNull() {
        assertThat(EventDecoder.decodeAll(ID, fields("event", "completed", "jobId", "1 2", "returnValue:1", "5")))
                .containsExactly(new CompletedEvent(ID, TIME, "1", "5"), new CompletedEvent(ID, TIME, "2", "null"));
    }

    @Test
    void aJobOfAnEntryWithoutARequiredFieldIsDeliveredAsUnknown() {
        List<QueueEvent> events = EventDecoder.decodeAll(ID, fields("event", "stalled", "jobId", "1 2",
                "stalledCount:1", "1"));
        assertThat(events.get(0)).isEqualTo(new StalledEvent(ID, TIME, "1", 1));
        assertThat(events.get(1)).isInstanceOf(UnknownEvent.class).extracting(QueueEvent::jobId).isEqualTo("2");
    }

    @Test
    void anEntryOfOneJobIsOneEvent() {
        assertThat(EventDecoder.decodeAll(ID, fields("event", "active", "jobId", "5")))
                .containsExactly(new ActiveEvent(ID, TIME, "5"));
    }

    @Test
    void readsTheTimeFromTheStreamId() {
        assertThat(decode("event", "drained")).isEqualTo(new DrainedEvent(ID, TIME));
    }

    @Test
    void ignoresFieldsItDoesNotKnow() {
        assertThat(decode("event", "added", "jobId", "9", "name", "nightly", "state", "waiting", "delay", "0",
                "schedulerId", "every-night"))
                .isEqualTo(new AddedEvent(ID, TIME, "9", "nightly", JobState.WAITING, Duration.ZERO));
    }

    @Test
    void aStateLabelItDoesNotKnowReadsAsUnknown() {
        assertThat(decode("event", "removed", "jobId", "9", "prev", "skipped"))
                .isEqualTo(new RemovedEvent(ID, TIME, "9", JobState.UNKNOWN));
    }

    @Test
    void anEventNameItDoesNotKnowIsDeliveredAsUnknownWithEveryField() {
        QueueEvent e = decode("event", "archived", "count", "12", "state", "completed");
        assertThat(e).isInstanceOf(UnknownEvent.class);
        assertThat(((UnknownEvent) e).fields()).containsExactly(Map.entry("event", "archived"), Map.entry("count", "12"),
                Map.entry("state", "completed"));
        assertThat(e.eventName()).isEqualTo("archived");
        assertThat(e.jobId()).isNull();
    }

    @Test
    void cleanedCarriesTheCountAndState() {
        QueueEvent e = decode("event", "cleaned", "count", "12", "state", "completed");
        assertThat(e).isEqualTo(new io.bullpen.events.CleanedEvent(e.eventId(), e.time(), 12, io.bullpen.JobState.COMPLETED));
    }

    @Test
    void aMalformedEntryIsDeliveredAsUnknown() {
        assertThat(decode("event", "retrying", "jobId", "9", "attemptsMade", "1", "delay", "soon"))
                .isInstanceOf(UnknownEvent.class);
        assertThat(decode("event", "active")).isInstanceOf(UnknownEvent.class);
    }

    @Test
    void addedAndRetryingAreAlsoSeenAsWaitingOrDelayed() {
        assertThat(EventDecoder.viewsOf(decode("event", "added", "jobId", "1", "name", "n", "state", "prioritized")))
                .containsExactly(new WaitingEvent(ID, TIME, "1", null));
        assertThat(EventDecoder.viewsOf(decode("event", "added", "jobId", "1", "name", "n", "state", "delayed", "delay", "500")))
                .containsExactly(new DelayedEvent(ID, TIME, "1", Duration.ofMillis(500)));
        assertThat(EventDecoder.viewsOf(decode("event", "added", "jobId", "1", "name", "n", "state", "waiting-children")))
                .containsExactly(new io.bullpen.events.WaitingChildrenEvent(ID, TIME, "1"));
        assertThat(decode("event", "waitingChildren", "jobId", "1"))
                .isEqualTo(new io.bullpen.events.WaitingChildrenEvent(ID, TIME, "1"));
        QueueEvent retrying = decode("event", "retrying", "jobId", "1", "attemptsMade", "2", "delay", "0", "failedReason", "x");
        assertThat(retrying).isEqualTo(new RetryingEvent(ID, TIME, "1", 2, Duration.ZERO, "x"));
        assertThat(EventDecoder.viewsOf(retrying)).containsExactly(new WaitingEvent(ID, TIME, "1", JobState.ACTIVE));
        assertThat(EventDecoder.viewsOf(decode("event", "completed", "jobId", "1", "returnValue", "1"))).isEqualTo(List.of());
    }

    @Test
    void pausedAndResumedCarryTheGroupWhenOneGroupChanged() {
        assertThat(decode("event", "paused", "group", "acme")).isEqualTo(new PausedEvent(ID, TIME, "acme"));
        assertThat(((ResumedEvent) decode("event", "resumed", "group", "acme")).group()).isEqualTo("acme");
        assertThat(((PausedEvent) decode("event", "paused")).group()).as("the whole queue").isNull();
    }
}
