package io.bullpen.client;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JavaType;
import io.bullpen.JobOptions;
import io.bullpen.flow.FlowProducer;
import io.bullpen.Queue;
import io.bullpen.QueueEvents;
import io.bullpen.dashboard.Dashboard;
import io.bullpen.instrument.Instrumentation;
import io.bullpen.internal.JsonCodec;
import io.bullpen.internal.KeyScheme;
import io.bullpen.internal.Validation;
import io.bullpen.worker.Worker;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.redisson.api.RedissonClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client object for an application: it holds the Redis client, the key prefix and the
 * {@link Instrumentation}s, hands out queues, workers, event listeners and the dashboard built
 * with them, and closes all of those at once.
 *
 * <pre>{@code
 * Bullpen bullpen = Bullpen.builder(redisson).prefix("bp").build();
 * Queue<Order> orders = bullpen.queue("orders", Order.class);
 * Worker<Order, String> worker = bullpen.worker("orders", Order.class,
 *         w -> w.processor(ctx -> ship(ctx.job().data())))
 *         .start();
 * ...
 * bullpen.close();   // closes the worker; the RedissonClient stays open
 * }</pre>
 *
 * <p>What is shared: the prefix; the instrumentations, given to every queue and worker handed
 * out (next to a worker's listeners, never in their place); the server checks, done once per
 * {@link RedissonClient}; and the Lua script catalog, loaded once per JVM. Each worker and event
 * listener still opens its own small client for blocking waits: a blocking wait holds its
 * connection for the whole wait, so they cannot share one connection.
 *
 * <p>Workers and the dashboard are built here from a function that configures their builder, so
 * what this client hands out is what it owns. The static builders ({@code Queue.builder},
 * {@code Worker.builder}, ...) stay, for objects this client does not own. Thread-safe.
 */
public final class Bullpen implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Bullpen.class);

    private final RedissonClient redisson;
    private final String prefix;
    private final List<Instrumentation> instrumentations;
    private final Map<String, JobOptions> defaultJobOptions;
    private final Map<String, HandedOut> queues = new ConcurrentHashMap<>();
    private final List<AutoCloseable> owned = new ArrayList<>();
    private boolean closed;
    private FlowProducer flows;

    private record HandedOut(JavaType type, Queue<?> queue) {
    }

    private Bullpen(Builder b) {
        this.redisson = b.redisson;
        this.prefix = b.prefix;
        this.instrumentations = List.copyOf(b.instrumentations);
        this.defaultJobOptions = Map.copyOf(b.defaultJobOptions);
    }

    /**
     * @param redisson the Redis client (any codec: Bullpen always uses its own); not closed by
     *     {@link #close()}
     * @return a builder
     * @throws NullPointerException when redisson is null
     */
    public static Builder builder(RedissonClient redisson) {
        return new Builder(redisson);
    }

    /** @return the key prefix of every queue handed out */
    public String prefix() {
        return prefix;
    }

    /**
     * The flow producer of this client: its prefix, each queue's default job options given to
     * this client's builder, and its instrumentations (a flow add is traced and counted as a bulk
     * add). Built on the first call and the same object afterwards.
     *
     * @return the flow producer
     */
    public synchronized FlowProducer flows() {
        checkOpen();
        if (flows == null) {
            FlowProducer.Builder b = FlowProducer.builder(redisson).prefix(prefix);
            defaultJobOptions.forEach(b::defaultJobOptions);
            instrumentations.forEach(b::instrumentation);
            flows = b.build();
        }
        return flows;
    }

    /** @return the Redis client */
    public RedissonClient redisson() {
        return redisson;
    }

    /**
     * The queue of that name, built on the first call and the same object afterwards.
     *
     * @param name the queue name
     * @param dataType the class of the jobs' data
     * @param <T> the type of the jobs' data
     * @return the queue
     * @throws IllegalArgumentException for an illegal name, or when the queue was already handed
     *     out for another data type
     */
    public <T> Queue<T> queue(String name, Class<T> dataType) {
        Objects.requireNonNull(dataType, "dataType");
        return queue(name, JsonCodec.type(dataType), () -> Queue.builder(redisson, name, dataType));
    }

    /**
     * As {@link #queue(String, Class)}, for a generic data type.
     *
     * @param name the queue name
     * @param dataType the generic type of the jobs' data
     * @param <T> the type of the jobs' data
     * @return the queue
     */
    public <T> Queue<T> queue(String name, TypeReference<T> dataType) {
        Objects.requireNonNull(dataType, "dataType");
        return queue(name, JsonCodec.type(dataType), () -> Queue.builder(redisson, name, dataType));
    }

    @SuppressWarnings("unchecked")
    private <T> Queue<T> queue(String name, JavaType type, java.util.function.Supplier<Queue.Builder<T>> builder) {
        checkOpen();
        HandedOut h = queues.computeIfAbsent(Validation.queueName(name), n -> {
            Queue.Builder<T> b = builder.get().prefix(prefix);
            instrumentations.forEach(b::instrumentation);
            JobOptions defaults = defaultJobOptions.get(n);
            if (defaults != null) {
                b.defaultJobOptions(defaults);
            }
            return new HandedOut(type, b.build());
        });
        if (!h.type().equals(type)) {
            throw new IllegalArgumentException("queue \"" + name + "\" was already handed out for data type "
                    + h.type().toCanonical() + ", not " + type.toCanonical());
        }
        return (Queue<T>) h.queue();
    }

    /**
     * Builds a worker of a queue with this client's prefix, instrumentations and each queue's
     * default job options (for the children its processor adds at runtime, see
     * {@code Worker.Builder.defaultJobOptions}), and owns it: it is closed by {@link #close()}. {@code configure} receives the worker's builder and returns
     * it (or the builder {@code processor(...)} returned), e.g.
     * {@code bullpen.worker("orders", Order.class, w -> w.processor(ctx -> ship(ctx.job().data())).concurrency(4))}.
     *
     * @param queue the queue name
     * @param dataType the class of the jobs' data
     * @param configure sets the processor and any other setting on the builder, and returns it
     * @param <T> the type of the jobs' data
     * @param <R> the type of the processor's result
     * @return the worker, not yet started
     * @throws IllegalStateException when this client is closed, or {@code configure} set no processor
     */
    public <T, R> Worker<T, R> worker(String queue, Class<T> dataType,
                                      Function<Worker.Builder<T, Object>, Worker.Builder<T, R>> configure) {
        checkOpen();
        return own(Worker.builder(redisson, queue, dataType), configure);
    }

    /**
     * As {@link #worker(String, Class, Function)}, for a generic data type.
     *
     * @param queue the queue name
     * @param dataType the generic type of the jobs' data
     * @param configure sets the processor and any other setting on the builder, and returns it
     * @param <T> the type of the jobs' data
     * @param <R> the type of the processor's result
     * @return the worker, not yet started
     */
    public <T, R> Worker<T, R> worker(String queue, TypeReference<T> dataType,
                                      Function<Worker.Builder<T, Object>, Worker.Builder<T, R>> configure) {
        checkOpen();
        return own(Worker.builder(redisson, queue, dataType), configure);
    }

    private <T, R> Worker<T, R> own(Worker.Builder<T, Object> b,
                                    Function<Worker.Builder<T, Object>, Worker.Builder<T, R>> configure) {
        Objects.requireNonNull(configure, "configure");
        b.prefix(prefix);
        instrumentations.forEach(b::instrumentation);
        // The children its processor adds at runtime get each queue's defaults, as flow adds do.
        defaultJobOptions.forEach(b::defaultJobOptions);
        Worker.Builder<T, R> configured = Objects.requireNonNull(configure.apply(b),
                "configure returned null: return the builder");
        Worker<T, R> worker = configured.build();
        own(worker);
        return worker;
    }

    /**
     * A listener for a queue's events, not yet started: add callbacks, then
     * {@link QueueEvents#start()}. Closed by {@link #close()}.
     *
     * @param queue the queue name
     * @return the listener
     */
    public QueueEvents events(String queue) {
        checkOpen();
        QueueEvents events = QueueEvents.builder(redisson, queue).prefix(prefix).build();
        own(events);
        return events;
    }

    /**
     * Builds the dashboard, showing the queues under this client's prefix, and owns it: it is
     * closed by {@link #close()}. {@code configure} receives the dashboard's builder and returns
     * it, e.g. {@code bullpen.dashboard(d -> d.port(8080).token(secret))}.
     *
     * @param configure sets the port, token and any other setting on the builder, and returns it
     * @return the dashboard, not yet listening: call {@link Dashboard#start()}
     * @throws IllegalStateException when this client is closed
     */
    public Dashboard dashboard(UnaryOperator<Dashboard.Builder> configure) {
        Objects.requireNonNull(configure, "configure");
        checkOpen();
        Dashboard.Builder configured = Objects.requireNonNull(configure.apply(Dashboard.builder(redisson).prefix(prefix)),
                "configure returned null: return the builder");
        Dashboard dashboard = configured.build();
        own(dashboard);
        return dashboard;
    }

    /**
     * Closes every worker (each waiting up to its close timeout for its running jobs), event
     * listener and dashboard handed out, in that order. The {@link RedissonClient} stays open:
     * it is the caller's. Idempotent; nothing can be handed out afterwards.
     */
    @Override
    public void close() {
        List<AutoCloseable> all;
        synchronized (owned) {
            if (closed) {
                return;
            }
            closed = true;
            all = new ArrayList<>(owned);
            owned.clear();
        }
        closeAll(all, Worker.class);
        closeAll(all, QueueEvents.class);
        closeAll(all, AutoCloseable.class);
    }

    private static void closeAll(List<AutoCloseable> all, Class<?> kind) {
        for (var it = all.iterator(); it.hasNext(); ) {
            AutoCloseable c = it.next();
            if (kind.isInstance(c)) {
                it.remove();
                try {
                    c.close();
                } catch (Exception | LinkageError e) {
                    log.warn("closing {} failed; ignored", c, e);
                }
            }
        }
    }

    private void own(AutoCloseable resource) {
        synchronized (owned) {
            if (!closed) {
                owned.add(resource);
                return;
            }
        }
        // Built from a builder handed out before close(): close it at once, so nothing outlives us.
        try {
            resource.close();
        } catch (Exception e) {
            log.warn("closing {} failed; ignored", resource, e);
        }
        throw new IllegalStateException("this Bullpen is closed");
    }

    private void checkOpen() {
        synchronized (owned) {
            if (closed) {
                throw new IllegalStateException("this Bullpen is closed");
            }
        }
    }

    /** Configures a {@link Bullpen}. */
    public static final class Builder {
        private final RedissonClient redisson;
        private String prefix = KeyScheme.DEFAULT_PREFIX;
        private final List<Instrumentation> instrumentations = new ArrayList<>();
        private final Map<String, JobOptions> defaultJobOptions = new ConcurrentHashMap<>();

        private Builder(RedissonClient redisson) {
            this.redisson = Objects.requireNonNull(redisson, "redisson must not be null");
        }

        /**
         * @param prefix the prefix of every key of the queues handed out (default "bp")
         * @return this builder
         * @throws IllegalArgumentException for an illegal prefix
         */
        public Builder prefix(String prefix) {
            this.prefix = Validation.prefix(prefix);
            return this;
        }

        /**
         * Adds an observer of every queue and worker handed out (several may be added); it takes
         * no worker listener's place.
         *
         * @param instrumentation the observer
         * @return this builder
         */
        public Builder instrumentation(Instrumentation instrumentation) {
            instrumentations.add(Objects.requireNonNull(instrumentation, "instrumentation"));
            return this;
        }

        /**
         * Default job options for the queue of that name handed out by {@link Bullpen#queue(String, Class)}: see
         * {@code Queue.Builder.defaultJobOptions} (options an add does not set are filled in from
         * these). The {@link Bullpen#flows() flow producer} and every worker handed out (for the
         * children a processor adds at runtime) fill in the same defaults for that queue's jobs.
         * Checked now; the last call for a queue wins.
         *
         * @param queue the queue name
         * @param options the defaults
         * @return this builder
         * @throws IllegalArgumentException for an illegal queue name, or options that set a custom
         *     job id or a deduplication
         */
        public Builder defaultJobOptions(String queue, JobOptions options) {
            // The queue builder checks both (it writes nothing).
            Queue.builder(redisson, queue, Object.class).defaultJobOptions(options);
            defaultJobOptions.put(queue, options);
            return this;
        }

        /** @return the client; nothing is written to Redis until a queue or worker is used */
        public Bullpen build() {
            return new Bullpen(this);
        }
    }
}
