package io.bullpen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.bullpen.events.AddedEvent;
import io.bullpen.events.CompletedEvent;
import io.bullpen.events.DelayedEvent;
import io.bullpen.events.DuplicatedEvent;
import io.bullpen.events.FailedEvent;
import io.bullpen.events.ProgressEvent;
import io.bullpen.events.QueueEvent;
import io.bullpen.events.RemovedEvent;
import io.bullpen.events.RetryingEvent;
import io.bullpen.events.StalledEvent;
import io.bullpen.events.UnknownEvent;
import io.bullpen.events.WaitingEvent;
import io.bullpen.internal.KeyScheme;
import io.bullpen.internal.ScriptTypes.RawJob;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.redisson.api.RStream;
import org.redisson.api.stream.StreamAddArgs;
import org.redisson.api.stream.StreamMessageId;
import org.redisson.api.stream.StreamRangeArgs;
import org.redisson.client.codec.StringCodec;
import org.slf4j.LoggerFactory;

/** QueueEvents: what each operation announces, where reading starts and resumes, and its lifecycle. */
@BullpenTest
class QueueEventsTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final List<QueueEvent> events = new CopyOnWriteArrayList<>();

    private QueueEvents listen(BullpenTestContext ctx) {
        return QueueEvents.builder(ctx.redisson(), ctx.queueName()).build().onEvent(events::add).start();
    }

    private static Queue<String> queue(BullpenTestContext ctx) {
        return Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
    }

    /** An event as one line: its name, job and fields, without id and time. */
    private static String describe(QueueEvent e) {
        String head = e.eventName() + (e.jobId() == null ? "" : " " + e.jobId());
        if (e instanceof AddedEvent a) {
            return head + " name=" + a.name() + " state=" + a.state() + " delay=" + a.delay();
        } else if (e instanceof DuplicatedEvent d) {
            return head + " name=" + d.name();
        } else if (e instanceof WaitingEvent w) {
            return head + " prev=" + w.prev();
        } else if (e instanceof DelayedEvent d) {
            return head + " delay=" + d.delay();
        } else if (e instanceof ProgressEvent p) {
            return head + " data=" + p.data();
        } else if (e instanceof CompletedEvent c) {
            return head + " returnValue=" + c.returnValue();
        } else if (e instanceof FailedEvent f) {
            return head + " failedReason=" + f.failedReason() + " attemptsMade=" + f.attemptsMade();
        } else if (e instanceof RetryingEvent r) {
            return head + " attemptsMade=" + r.attemptsMade() + " delay=" + r.delay() + " failedReason=" + r.failedReason();
        } else if (e instanceof StalledEvent s) {
            return head + " stalledCount=" + s.stalledCount();
        } else if (e instanceof RemovedEvent r) {
            return head + " prev=" + r.prev();
        } else if (e instanceof UnknownEvent u) {
            return "unknown " + u.eventName() + " jobId=" + u.jobId() + " fields=" + new TreeMap<>(u.fields());
        }
        return head;
    }

    private static List<String> described(List<? extends QueueEvent> list) {
        return list.stream().map(QueueEventsTest::describe).toList();
    }

    @Test
    void everyOperationAnnouncesItsEventWithItsFields(BullpenTestContext ctx) {
        List<QueueEvent> waiting = new CopyOnWriteArrayList<>();
        List<QueueEvent> delayed = new CopyOnWriteArrayList<>();
        List<CompletedEvent> completed = new CopyOnWriteArrayList<>();
        List<ProgressEvent> progress = new CopyOnWriteArrayList<>();
        Instant before = Instant.now().minusSeconds(1);
        Queue<String> q = queue(ctx);
        JobDriver driver = new JobDriver(ctx.redisson(), q.name());
        try (QueueEvents listener = listen(ctx).onWaiting(waiting::add).onDelayed(delayed::add)
                .onCompleted(completed::add).onProgress(progress::add)) {
            q.add("plain", "a");                                                            // 1
            q.add("urgent", "b", JobOptions.builder().priority(3).build());                 // 2
            q.add("later", "c", JobOptions.builder().delay(Duration.ofMinutes(30)).build()); // 3
            q.add("dup", "d", JobOptions.builder().jobId("custom-1").build());
            q.add("dup2", "e", JobOptions.builder().jobId("custom-1").build());

            RawJob one = driver.take();
            driver.progress(one, "50");
            driver.complete(one, "\"done\"");

            RawJob custom = driver.take();
            driver.fail(custom, "boom", 2, 1_000);          // attempt 1 of 2: back off 1 s
            q.promote("custom-1");
            custom = driver.take();
            driver.fail(custom, "boom again", 2, 1_000);    // attempt 2 of 2: failed for good

            RawJob two = driver.take();                     // the last ready job: drained
            driver.stall(two);
            two = driver.take();
            driver.fail(two, "flaky", 3, 0);                // retried at once
            q.retry("custom-1");
            q.remove("3");
            q.pause();
            q.resume();

            await().atMost(WAIT).until(() -> events.size() == 23);
            assertThat(described(events)).containsExactly(
                    "added 1 name=plain state=WAITING delay=PT0S",
                    "added 2 name=urgent state=PRIORITIZED delay=PT0S",
                    "added 3 name=later state=DELAYED delay=PT30M",
                    "added custom-1 name=dup state=WAITING delay=PT0S",
                    "duplicated custom-1 name=dup2",
                    "active 1",
                    "progress 1 data=50",
                    "completed 1 returnValue=\"done\"",
                    "active custom-1",
                    "retrying custom-1 attemptsMade=1 delay=PT1S failedReason=boom",
                    "waiting custom-1 prev=DELAYED",
                    "active custom-1",
                    "failed custom-1 failedReason=boom again attemptsMade=2",
                    "active 2",
                    "drained",
                    "stalled 2 stalledCount=1",
                    "active 2",
                    "drained",
                    "retrying 2 attemptsMade=1 delay=PT0S failedReason=flaky",
                    "waiting custom-1 prev=FAILED",
                    "removed 3 prev=DELAYED",
                    "paused",
                    "resumed");
            assertThat(described(waiting)).containsExactly(
                    "waiting 1 prev=null",           // added, ready
                    "waiting 2 prev=null",           // added, prioritized
                    "waiting custom-1 prev=null",
                    "waiting custom-1 prev=DELAYED", // promoted
                    "waiting 2 prev=ACTIVE",         // recovered after stalling
                    "waiting 2 prev=ACTIVE",         // retried without backoff
                    "waiting custom-1 prev=FAILED"); // retried by hand
            assertThat(described(delayed)).containsExactly("delayed 3 delay=PT30M", "delayed custom-1 delay=PT1S");
            assertThat(completed.get(0).returnValue(String.class)).isEqualTo("done");
            assertThat(progress.get(0).data(Integer.class)).isEqualTo(50);

            // Ids grow; the time is the id's millisecond part, Redis's clock; the last id is the position.
            List<String> ids = events.stream().map(QueueEvent::eventId).toList();
            assertThat(ids).doesNotHaveDuplicates();
            for (QueueEvent e : events) {
                assertThat(e.time()).isBetween(before, Instant.now().plusSeconds(1))
                        .isEqualTo(Instant.ofEpochMilli(Long.parseLong(e.eventId().split("-")[0])));
            }
            assertThat(listener.lastEventId()).isEqualTo(ids.get(ids.size() - 1));
            assertThat(waiting.get(0).eventId()).as("a view keeps its entry's id").isEqualTo(ids.get(0));
        }
    }

    @Test
    void startsWithTheEventsAppendedAfterStart(BullpenTestContext ctx) {
        Queue<String> q = queue(ctx);
        q.add("before", "x");
        try (QueueEvents listener = listen(ctx)) {
            q.add("after", "y");
            await().atMost(WAIT).until(() -> !events.isEmpty());
            assertThat(described(events)).containsExactly("added 2 name=after state=WAITING delay=PT0S");
            assertThat(listener.lastEventId()).isEqualTo(events.get(0).eventId());
        }
    }

    @Test
    void onTakesAnyEventTypeAndIncludesTheViews(BullpenTestContext ctx) {
        Queue<String> q = queue(ctx);
        List<io.bullpen.events.DelayChangedEvent> delayChanged = new CopyOnWriteArrayList<>();
        List<io.bullpen.events.DataUpdatedEvent> dataUpdated = new CopyOnWriteArrayList<>();
        List<WaitingEvent> waiting = new CopyOnWriteArrayList<>();
        List<QueueEvent> stored = new CopyOnWriteArrayList<>();
        try (QueueEvents listener = QueueEvents.builder(ctx.redisson(), ctx.queueName()).build()
                .on(io.bullpen.events.DelayChangedEvent.class, delayChanged::add)
                .on(io.bullpen.events.DataUpdatedEvent.class, dataUpdated::add)
                .on(WaitingEvent.class, waiting::add)
                .on(QueueEvent.class, stored::add)
                .start()) {
            String delayedId = q.add("later", "x", JobOptions.builder().delay(Duration.ofHours(1)).build()).id();
            q.changeDelay(delayedId, Duration.ofHours(2));
            String waitingId = q.add("now", "y").id();
            q.updateData(waitingId, "z");
            await().atMost(WAIT).until(() -> dataUpdated.size() == 1);
            assertThat(delayChanged).extracting(QueueEvent::jobId).containsExactly(delayedId);
            assertThat(dataUpdated).extracting(QueueEvent::jobId).containsExactly(waitingId);
            // The add of a waiting job reaches a WaitingEvent listener as a view.
            assertThat(waiting).extracting(QueueEvent::jobId).containsExactly(waitingId);
            // QueueEvent.class is onEvent: each stored entry once, no views.
            assertThat(stored).extracting(QueueEvent::eventName)
                    .containsExactly("added", "delayChanged", "added", "dataUpdated");
        }
        assertThatThrownBy(() -> QueueEvents.builder(ctx.redisson(), ctx.queueName()).build().on(null, e -> { }))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("type");
    }

    @Test
    void resumingFromAnIdReplaysExactlyWhatFollowed(BullpenTestContext ctx) {
        Queue<String> q = queue(ctx);
        String stoppedAt;
        try (QueueEvents first = listen(ctx)) {
            IntStream.rangeClosed(1, 10).forEach(i -> q.add("job", "j" + i));
            await().atMost(WAIT).until(() -> events.size() == 10);
            stoppedAt = first.lastEventId();
            assertThat(stoppedAt).isEqualTo(events.get(9).eventId());
        }
        q.add("job", "j11");   // while nobody listens
        q.add("job", "j12");
        List<String> streamIds = new RStreamIds(ctx, q.name()).all();
        assertThat(streamIds).hasSize(12);

        List<QueueEvent> fromFourth = replay(ctx, events.get(3).eventId(), 8);
        assertThat(fromFourth).extracting(QueueEvent::jobId).containsExactly("5", "6", "7", "8", "9", "10", "11", "12");
        assertThat(fromFourth).extracting(QueueEvent::eventId).containsExactlyElementsOf(streamIds.subList(4, 12));

        assertThat(replay(ctx, stoppedAt, 2)).extracting(QueueEvent::jobId).containsExactly("11", "12");
        assertThat(replay(ctx, "0", 12)).extracting(QueueEvent::eventId).containsExactlyElementsOf(streamIds);
    }

    /** Listens from {@code after} until {@code expected} events came, then checks none follows. */
    private static List<QueueEvent> replay(BullpenTestContext ctx, String after, int expected) {
        List<QueueEvent> seen = new CopyOnWriteArrayList<>();
        try (QueueEvents replay = QueueEvents.builder(ctx.redisson(), ctx.queueName()).lastEventId(after).build()) {
            replay.onEvent(seen::add).start();
            await().atMost(WAIT).until(() -> seen.size() >= expected);
            assertThat(replay.lastEventId()).isEqualTo(seen.get(seen.size() - 1).eventId());
        }
        assertThat(seen).hasSize(expected);
        return new ArrayList<>(seen);
    }

    /** The ids in a queue's stream, read directly. */
    private record RStreamIds(BullpenTestContext ctx, String queue) {
        List<String> all() {
            RStream<String, String> stream = ctx.redisson().getStream(new KeyScheme("bp", queue).events(), StringCodec.INSTANCE);
            return stream.range(StreamRangeArgs.startId(StreamMessageId.MIN).endId(StreamMessageId.MAX)).keySet().stream()
                    .map(StreamMessageId::toString).toList();
        }
    }

    @Test
    void aThrowingListenerDoesNotStopDelivery(BullpenTestContext ctx) {
        Logger logger = (Logger) LoggerFactory.getLogger(QueueEvents.class);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        logger.addAppender(logged);
        AtomicInteger thrown = new AtomicInteger();
        List<CompletedEvent> completed = new CopyOnWriteArrayList<>();
        Queue<String> q = queue(ctx);
        JobDriver driver = new JobDriver(ctx.redisson(), q.name());
        try (QueueEvents listener = QueueEvents.builder(ctx.redisson(), q.name()).build()) {
            listener.onCompleted(e -> {
                thrown.incrementAndGet();
                throw new IllegalStateException("listener bug on " + e.jobId());
            });
            listener.onAdded(e -> {
                throw new AssertionError("an Error is contained too");
            });
            listener.onCompleted(completed::add).start();
            IntStream.rangeClosed(1, 3).forEach(i -> q.add("job", "j" + i));
            driver.completeAll("null");

            await().atMost(WAIT).until(() -> completed.size() == 3);
            assertThat(completed).extracting(CompletedEvent::jobId).containsExactly("1", "2", "3");
            assertThat(completed.get(0).returnValue(String.class)).isNull();
            assertThat(thrown).hasValue(3);
            assertThat(listener.isRunning()).isTrue();
        } finally {
            logger.detachAppender(logged);
        }
        assertThat(logged.list).extracting(ILoggingEvent::getFormattedMessage)
                .contains("events listener onCompleted threw on completed " + completed.get(0).eventId() + " (1); ignored")
                .anyMatch(m -> m.startsWith("events listener onAdded threw on added"));
    }

    @Test
    void closeIsPromptAndIdempotent(BullpenTestContext ctx) {
        Queue<String> q = queue(ctx);
        QueueEvents listener = listen(ctx);
        q.add("job", "x");
        await().atMost(WAIT).until(() -> events.size() == 1);   // the reader is blocked in its next read now

        long closeMs = millis(listener::close);
        long againMs = millis(listener::close);

        assertThat(closeMs).as("close while blocked in XREAD").isLessThan(1_000);
        assertThat(againMs).isLessThan(100);
        assertThat(listener.isRunning()).isFalse();
        assertThat(readerThreads(ctx)).isEmpty();
        assertThatThrownBy(listener::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        System.out.printf("QueueEvents.close(): %d ms while blocked, %d ms again%n", closeMs, againMs);
    }

    @Test
    void aListenerMayCloseItsOwnListener(BullpenTestContext ctx) {
        Queue<String> q = queue(ctx);
        QueueEvents listener = QueueEvents.builder(ctx.redisson(), q.name()).build();
        listener.onEvent(e -> {
            events.add(e);
            listener.close();    // from the reader thread: must neither deadlock nor deliver more
        }).start();
        q.addBulk(List.of(JobSpec.of("a", "1"), JobSpec.of("b", "2")));
        await().atMost(WAIT).until(() -> !listener.isRunning() && readerThreads(ctx).isEmpty());
        assertThat(events).hasSize(1);
    }

    @Test
    void closeBeforeStartIsAllowedAndFinal(BullpenTestContext ctx) {
        QueueEvents listener = QueueEvents.builder(ctx.redisson(), ctx.queueName()).build();
        listener.close();
        assertThatThrownBy(listener::start).isInstanceOf(IllegalStateException.class);
        assertThat(listener.lastEventId()).isNull();
    }

    @Test
    void unknownAndMalformedEntriesArriveAsUnknownEventsAndDeliveryGoesOn(BullpenTestContext ctx) {
        Queue<String> q = queue(ctx);
        RStream<String, String> stream = ctx.redisson().getStream(new KeyScheme("bp", q.name()).events(), StringCodec.INSTANCE);
        try (QueueEvents listener = listen(ctx)) {
            stream.add(StreamAddArgs.entries(Map.of("event", "teleported", "jobId", "7", "to", "mars")));   // a newer version
            stream.add(StreamAddArgs.entries(Map.of("event", "completed")));                               // no jobId
            stream.add(StreamAddArgs.entries(Map.of("event", "stalled", "jobId", "8", "stalledCount", "many")));
            stream.add(StreamAddArgs.entries(Map.of("note", "no event field")));
            q.add("job", "x");

            await().atMost(WAIT).until(() -> events.size() == 5);
            assertThat(described(events)).containsExactly(
                    "unknown teleported jobId=7 fields={event=teleported, jobId=7, to=mars}",
                    "unknown completed jobId=null fields={event=completed}",
                    "unknown stalled jobId=8 fields={event=stalled, jobId=8, stalledCount=many}",
                    "unknown null jobId=null fields={note=no event field}",
                    "added 1 name=job state=WAITING delay=PT0S");
            assertThat(listener.isRunning()).isTrue();
        }
    }

    @Test
    void theStreamStaysCapped(BullpenTestContext ctx) {
        Queue<String> q = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).eventsMaxLength(100).build();
        for (int chunk = 0; chunk < 6; chunk++) {
            q.addBulk(IntStream.range(0, 500).mapToObj(i -> JobSpec.of("job", "x")).toList());
        }
        long length = ctx.redisson().getStream(new KeyScheme("bp", q.name()).events(), StringCodec.INSTANCE).size();
        // MAXLEN ~ trims whole stream nodes (100 entries each by default): a little over the cap.
        assertThat(length).as("3,000 events, cap ~100").isBetween(100L, 200L);
        System.out.printf("events stream after 3,000 events with eventsMaxLength(100): %d entries%n", length);
    }

    @Test
    void lastEventIdMustBeAStreamId(BullpenTestContext ctx) {
        QueueEvents.Builder builder = QueueEvents.builder(ctx.redisson(), ctx.queueName());
        assertThatThrownBy(() -> builder.lastEventId("yesterday")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("lastEventId must be a stream id such as \"1718000000000-0\" (or \"0\" or \"$\") but was \"yesterday\"");
        assertThatThrownBy(() -> builder.lastEventId("99999999999999999999-0")).isInstanceOf(IllegalArgumentException.class);
        assertThat(builder.lastEventId("1718000000000").build().lastEventId()).isEqualTo("1718000000000-0");
        assertThat(builder.lastEventId("1718000000000-7").build().lastEventId()).isEqualTo("1718000000000-7");
        assertThat(builder.lastEventId("$").build().lastEventId()).isNull();
        assertThatThrownBy(() -> QueueEvents.builder(ctx.redisson(), "bad name")).isInstanceOf(IllegalArgumentException.class);
    }

    private static long millis(Runnable r) {
        long t0 = System.nanoTime();
        r.run();
        return (System.nanoTime() - t0) / 1_000_000;
    }

    private static List<Thread> readerThreads(BullpenTestContext ctx) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("bullpen-events-") && t.getName().contains(ctx.queueName()))
                .toList();
    }
}
