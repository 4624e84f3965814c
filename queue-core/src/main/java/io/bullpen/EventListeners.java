package io.bullpen;

import io.bullpen.events.QueueEvent;
import io.bullpen.internal.EventDecoder;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The listeners of a {@link QueueEvents} and the delivery of each stream entry to them, in order. */
final class EventListeners {
    private static final Logger log = LoggerFactory.getLogger(QueueEvents.class); // users configure QueueEvents' logger

    private final List<Listener<?>> listeners = new CopyOnWriteArrayList<>();

    <E extends QueueEvent> void add(Class<E> type, boolean storedOnly, Consumer<? super E> listener, String name) {
        listeners.add(new Listener<>(type, storedOnly, listener, name));
    }

    /**
     * Called by the reader for each stream entry, in order: each of its events (an entry can
     * hold the same event of several jobs), then that event's views.
     */
    void deliver(String id, Map<String, String> fields) {
        for (QueueEvent event : EventDecoder.decodeAll(id, fields)) {
            for (Listener<?> l : listeners) {
                l.offer(event, true);
            }
            for (QueueEvent view : EventDecoder.viewsOf(event)) {
                for (Listener<?> l : listeners) {
                    l.offer(view, false);
                }
            }
        }
    }

    /** One callback and the events it takes; {@code storedOnly} skips the views. */
    private record Listener<E extends QueueEvent>(Class<E> type, boolean storedOnly, Consumer<? super E> consumer,
                                                  String name) {
        void offer(QueueEvent event, boolean stored) {
            if ((stored || !storedOnly) && type.isInstance(event)) {
                try {
                    consumer.accept(type.cast(event));
                } catch (VirtualMachineError fatal) {
                    throw fatal;
                } catch (Throwable t) {
                    // A listener's failure is its own: the next listeners and events still run.
                    log.warn("events listener {} threw on {} {} ({}); ignored", name, event.eventName(), event.eventId(),
                            event.jobId(), t);
                }
            }
        }
    }
}
