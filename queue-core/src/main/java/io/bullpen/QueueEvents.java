package io.bullpen;

import io.bullpen.events.ActiveEvent;
import io.bullpen.events.AddedEvent;
import io.bullpen.events.CompletedEvent;
import io.bullpen.events.DelayedEvent;
import io.bullpen.events.CleanedEvent;
import io.bullpen.events.DrainedEvent;
import io.bullpen.events.DuplicatedEvent;
import io.bullpen.events.FailedEvent;
import io.bullpen.events.PausedEvent;
import io.bullpen.events.ProgressEvent;
import io.bullpen.events.QueueEvent;
import io.bullpen.events.RemovedEvent;
import io.bullpen.events.ResumedEvent;
import io.bullpen.events.RetryingEvent;
import io.bullpen.events.StalledEvent;
import io.bullpen.events.WaitingEvent;
import io.bullpen.internal.EventReader;
import io.bullpen.internal.KeyScheme;
import io.bullpen.internal.RedisChecks;
import io.bullpen.internal.Validation;
import java.util.Objects;
import java.util.function.Consumer;
import org.redisson.api.RedissonClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Listens to a queue's lifecycle events from any process: jobs added, taken, progressing,
 * completed, failed, retried, stalled, removed; the queue drained, paused, resumed. Every state
 * change appends its event to the queue's Redis stream in the same script, and this reads the
 * stream, so a listener that reconnects misses nothing still in the stream (unlike pub/sub).
 *
 * <pre>{@code
 * QueueEvents events = QueueEvents.builder(redisson, "orders").build();   // .lastEventId(id) to resume
 * events.onCompleted(e -> log.info("{} -> {}", e.jobId(), e.returnValue()));
 * events.onFailed(e -> alert(e.jobId(), e.failedReason()));
 * events.start();
 * ...
 * events.close();
 * }</pre>
 *
 * <p><b>Delivery.</b> One reader thread delivers the events in stream order, each to the
 * listeners in the order they were added. Keep callbacks short (hand slow work to an executor):
 * while a callback runs, the next events wait. A callback that throws is logged and the others
 * still run. Listeners may be added before or after {@link #start()}. {@link #onEvent} gets
 * each stream entry once, as its own record; the typed listeners also get the views BullMQ
 * users expect: an add reaches {@link #onWaiting} or {@link #onDelayed} too, a retry with
 * backoff {@link #onDelayed}, one without (and a recovered stalled job) {@link #onWaiting}.
 *
 * <p><b>Where reading starts.</b> By default with the events appended after {@link #start()};
 * with {@link Builder#lastEventId(String)} with those after that id. {@link #lastEventId()} is
 * the id to resume from later. The stream is capped (about 10,000 events by default; a setting
 * of the queue, {@link Queue.Builder#eventsMaxLength(long)}): a listener that stays away longer
 * than the stream's span misses the events trimmed meanwhile.
 *
 * <p><b>Failures.</b> A dropped connection or a Redis restart never ends the listener: it reads
 * again from the last event it delivered. It blocks on a small Redis client of its own (1-2
 * connections, a copy of the given client's settings), never on the application's pool.
 *
 * <p>Thread-safe. Does not own the given {@link RedissonClient}.
 */
public final class QueueEvents implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(QueueEvents.class);

    private final RedissonClient redisson;
    private final KeyScheme keys;
    private final String startAfter;
    private final EventListeners listeners = new EventListeners();
    private final Object lifecycle = new Object();
    private volatile EventReader reader;
    private boolean started;
    private boolean closed;

    private QueueEvents(Builder b) {
        this.redisson = b.redisson;
        this.keys = new KeyScheme(b.prefix, b.queue);
        this.startAfter = b.lastEventId;
    }

    /**
     * Starts building a listener for a queue's events.
     *
     * @param redisson the Redis client; its settings are copied for the listener's own small client
     * @param queue the queue name
     * @return a builder
     * @throws IllegalArgumentException for an illegal queue name
     */
    public static Builder builder(RedissonClient redisson, String queue) {
        return new Builder(redisson, queue);
    }

    /** @return the queue's name */
    public String queue() {
        return keys.queue();
    }

    /**
     * Starts reading the stream on the listener's thread. Returns once the starting position is
     * fixed: an event appended after this returns is delivered.
     *
     * @return this
     * @throws IllegalStateException when already started or closed
     * @throws org.redisson.client.RedisConnectionException when Redis cannot be reached
     */
    public QueueEvents start() {
        synchronized (lifecycle) {
            if (started || closed) {
                throw new IllegalStateException("events of queue " + queue() + " were already "
                        + (closed ? "closed" : "started"));
            }
            reader = new EventReader(redisson, keys.events(), startAfter, listeners::deliver);
            started = true;
            reader.start();
            RedisChecks.warnIfEvictingInBackground(redisson);
            log.debug("listening to the events of queue {} after {}", queue(), reader.position());
            return this;
        }
    }

    /** @return true between {@link #start()} and {@link #close()} */
    public boolean isRunning() {
        synchronized (lifecycle) {
            return started && !closed;
        }
    }

    /**
     * The id to resume from: pass it to {@link Builder#lastEventId(String)} of a later listener
     * to receive exactly the events that followed.
     *
     * @return the id of the last event delivered (all its callbacks returned); before any, the id
     *     reading started after ({@code "0-0"} for an empty stream); null before {@link #start()}
     *     without a {@link Builder#lastEventId(String)}
     */
    public String lastEventId() {
        EventReader r = reader;
        return r != null ? r.position() : startAfter;
    }

    /**
     * Stops listening: a blocked read ends at once; an event being delivered gets up to 1 s to
     * finish its callbacks (from a callback itself, close returns at once and no later event is
     * delivered). Closes the listener's own Redis client. Idempotent.
     */
    @Override
    public void close() {
        EventReader r;
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            closed = true;
            r = reader;
        }
        if (r != null) {
            r.close();
        }
    }

    /**
     * Every event, as stored in the stream: each entry once, as its own record type (an entry
     * this version cannot read as an {@link io.bullpen.events.UnknownEvent}). The views built
     * for {@link #onWaiting} and {@link #onDelayed} are not repeated here.
     *
     * @param listener called on the reader thread
     * @return this
     */
    public QueueEvents onEvent(Consumer<? super QueueEvent> listener) {
        return add(QueueEvent.class, true, listener, "onEvent");
    }

    /**
     * Jobs added, whatever state they went to (see {@link AddedEvent#state()}).
     *
     * @param listener called on the reader thread
     * @return this
     */
    public QueueEvents onAdded(Consumer<? super AddedEvent> listener) {
        return add(AddedEvent.class, false, listener, "onAdded");
    }

    /**
     * Jobs that became ready to run (waiting or prioritized): added without delay (prev null),
     * promoted or due after a delay, retried after failing, given back by a worker, retried at
     * once after a failed attempt or recovered after stalling (prev {@link JobState#ACTIVE}).
     *
     * @param listener called on the reader thread
     * @return this
     */
    public QueueEvents onWaiting(Consumer<? super WaitingEvent> listener) {
        return add(WaitingEvent.class, false, listener, "onWaiting");
    }

    /**
     * Flow parents that started waiting for their children (added so: a view of the add).
     *
     * @param listener called on the reader thread
     * @return this
     */
    public QueueEvents onWaitingChildren(Consumer<? super io.bullpen.events.WaitingChildrenEvent> listener) {
        return add(io.bullpen.events.WaitingChildrenEvent.class, false, listener, "onWaitingChildren");
    }

    /**
     * Jobs put in delayed: added with a delay, backing off after a failed attempt, or a step
     * job's attempt that asked for a delay.
     *
     * @param listener called on the reader thread
     * @return this
     */
    public QueueEvents onDelayed(Consumer<? super DelayedEvent> listener) {
        return add(DelayedEvent.class, false, listener, "onDelayed");
    }

    /**
     * Jobs taken by a worker.
     *
     * @param listener called on the reader thread
     * @return this
     */
    public QueueEvents onActive(Consumer<? super ActiveEvent> listener) {
        return add(ActiveEvent.class, false, listener, "onActive");
    }

    /**
     * Progress reported by processors.
     *
     * @param listener called on the reader thread
     * @return this
     */
    public QueueEvents onProgress(Consumer<? super ProgressEvent> listener) {
        return add(ProgressEvent.class, false, listener, "onProgress");
    }

    /**
     * Jobs finished successfully.
     *
     * @param listener called on the reader thread
     * @return this
     */
    public QueueEvents onCompleted(Consumer<? super CompletedEvent> listener) {
        return add(CompletedEvent.class, false, listener, "onCompleted");
    }

    /**
     * Jobs failed for good (a failed attempt that will be retried is {@link #onRetrying}).
     *
     * @param listener called on the reader thread
     * @return this
     */
    public QueueEvents onFailed(Consumer<? super FailedEvent> listener) {
        return add(FailedEvent.class, false, listener, "onFailed");
    }

    /**
     * Failed attempts that will be retried.
     *
     * @param listener called on the reader thread
     * @return this
     */
    public QueueEvents onRetrying(Consumer<? super RetryingEvent> listener) {
        return add(RetryingEvent.class, false, listener, "onRetrying");
    }

    /**
     * Jobs whose lock expired while active, recovered to run again.
     *
     * @param listener called on the reader thread
     * @return this
     */
    public QueueEvents onStalled(Consumer<? super StalledEvent> listener) {
        return add(StalledEvent.class, false, listener, "onStalled");
    }

    /**
     * Jobs removed.
     *
     * @param listener called on the reader thread
     * @return this
     */
    public QueueEvents onRemoved(Consumer<? super RemovedEvent> listener) {
        return add(RemovedEvent.class, false, listener, "onRemoved");
    }

    /**
     * Jobs were removed in bulk by {@code clean} or {@code drain} (one event per operation).
     *
     * @param listener called on the reader thread
     * @return this
     */
    public QueueEvents onCleaned(Consumer<? super CleanedEvent> listener) {
        return add(CleanedEvent.class, false, listener, "onCleaned");
    }

    /**
     * The queue ran out of ready jobs.
     *
     * @param listener called on the reader thread
     * @return this
     */
    public QueueEvents onDrained(Consumer<? super DrainedEvent> listener) {
        return add(DrainedEvent.class, false, listener, "onDrained");
    }

    /**
     * The queue was paused.
     *
     * @param listener called on the reader thread
     * @return this
     */
    public QueueEvents onPaused(Consumer<? super PausedEvent> listener) {
        return add(PausedEvent.class, false, listener, "onPaused");
    }

    /**
     * The queue was resumed.
     *
     * @param listener called on the reader thread
     * @return this
     */
    public QueueEvents onResumed(Consumer<? super ResumedEvent> listener) {
        return add(ResumedEvent.class, false, listener, "onResumed");
    }

    /**
     * Adds with a custom job id that already existed (nothing was added).
     *
     * @param listener called on the reader thread
     * @return this
     */
    public QueueEvents onDuplicated(Consumer<? super DuplicatedEvent> listener) {
        return add(DuplicatedEvent.class, false, listener, "onDuplicated");
    }

    /**
     * Events of one type, for the types without a shortcut of their own (e.g.
     * {@link io.bullpen.events.DeduplicatedEvent}, {@link io.bullpen.events.DelayChangedEvent},
     * {@link io.bullpen.events.PriorityChangedEvent}, {@link io.bullpen.events.DataUpdatedEvent}).
     * {@code on(WaitingEvent.class, l)} is {@code onWaiting(l)}: the views are included, except
     * for {@code QueueEvent.class}, which is {@link #onEvent}.
     *
     * @param type the event record type
     * @param listener called on the reader thread
     * @param <E> the event type
     * @return this
     */
    public <E extends QueueEvent> QueueEvents on(Class<E> type, Consumer<? super E> listener) {
        Objects.requireNonNull(type, "type");
        return add(type, type == QueueEvent.class, listener, "on(" + type.getSimpleName() + ")");
    }

    private <E extends QueueEvent> QueueEvents add(Class<E> type, boolean storedOnly, Consumer<? super E> listener,
                                                   String name) {
        listeners.add(type, storedOnly, Objects.requireNonNull(listener, "listener"), name);
        return this;
    }

    /** Builds {@link QueueEvents}. */
    public static final class Builder {
        private final RedissonClient redisson;
        private final String queue;
        private String prefix = KeyScheme.DEFAULT_PREFIX;
        private String lastEventId;

        private Builder(RedissonClient redisson, String queue) {
            this.redisson = Objects.requireNonNull(redisson, "redisson");
            this.queue = Validation.queueName(queue);
        }

        /**
         * @param prefix the prefix of the queue's keys (default "bp"), as given to its {@link Queue}
         * @return this builder
         */
        public Builder prefix(String prefix) {
            this.prefix = Validation.prefix(prefix);
            return this;
        }

        /**
         * Resumes after an event: delivers exactly the events that followed it, as far as they
         * are still in the stream. {@code "0"} delivers the whole stream; {@code "$"} (the
         * default) only events appended after {@link QueueEvents#start()}.
         *
         * @param id a stream entry id such as {@code "1718000000000-0"}, usually an earlier
         *     listener's {@link QueueEvents#lastEventId()} or an event's {@code eventId()}
         * @return this builder
         * @throws IllegalArgumentException when the id is not a stream id
         */
        public Builder lastEventId(String id) {
            this.lastEventId = EventReader.startAfter(id);
            return this;
        }

        /** @return the listener, not yet started */
        public QueueEvents build() {
            return new QueueEvents(this);
        }
    }
}
