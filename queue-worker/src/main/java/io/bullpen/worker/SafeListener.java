package io.bullpen.worker;

import io.bullpen.Job;
import io.bullpen.instrument.Instrumentation;
import io.bullpen.instrument.Instrumentation.Outcome;
import io.bullpen.internal.Instrumentations;
import io.bullpen.internal.WireFormat;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers the user's listeners' callbacks, in order, on the worker's one events thread. The
 * worker's own threads (Redis client I/O threads among them) only queue a callback, so a
 * listener may call Bullpen or Redisson synchronously, and a slow one delays later callbacks,
 * never a job. A callback that throws is logged and never affects a job. The worker's
 * {@link Instrumentation}s are called here too, on the same thread, next to the listeners and
 * not in their place.
 *
 * <p>A callback that no listener or instrumentation implements (each keeps the interface's
 * no-op default) is not queued at all: a listener of completions only, or a tracing
 * instrumentation that only wraps the processor, never wakes the events thread for a job's
 * start or a drained queue. Without any implemented callback no thread is started.
 */
final class SafeListener<T, R> {
    private static final Logger log = LoggerFactory.getLogger(SafeListener.class);
    private final List<WorkerListener<T, ? super R>> delegates;
    private final List<Instrumentation> instruments;
    private final String queue;
    /** The {@link WorkerListener} callbacks some delegate implements. */
    private final Set<String> listened;
    /** The {@link Instrumentation} callbacks some instrumentation implements. */
    private final Set<String> instrumented;
    private final ThreadPoolExecutor events;
    private final AtomicLong queued = new AtomicLong();
    private volatile Thread eventsThread;

    SafeListener(List<WorkerListener<T, ? super R>> delegates, String threadName) {
        this(delegates, List.of(), "", threadName);
    }

    SafeListener(List<WorkerListener<T, ? super R>> delegates, List<Instrumentation> instruments, String queue,
            String threadName) {
        this.delegates = List.copyOf(delegates);
        this.instruments = List.copyOf(instruments);
        this.queue = queue;
        this.listened = implemented(this.delegates, WorkerListener.class);
        this.instrumented = implemented(this.instruments, Instrumentation.class);
        // One thread at most, started when a callback is queued and gone after a second idle: so
        // nothing needs shutting down, and results recorded after close() (a forced close's
        // finishes still in flight) are still delivered.
        this.events = listened.isEmpty() && instrumented.isEmpty() ? null : new ThreadPoolExecutor(0, 1, 1L, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(r, threadName);
                    t.setDaemon(true);
                    eventsThread = t;
                    return t;
                });
    }

    /**
     * The names of the methods of {@code type} that at least one of {@code impls} implements:
     * whose class (or an interface of its own) declares them, where the others inherit the no-op
     * default of {@code type}. A proxy declares every method, so it gets every callback.
     */
    static Set<String> implemented(List<?> impls, Class<?> type) {
        Set<String> names = new HashSet<>();
        for (Object impl : impls) {
            for (Method m : type.getMethods()) {
                if (Modifier.isStatic(m.getModifiers())) {
                    continue;
                }
                if (!m.isDefault() || declaredBeyond(impl.getClass(), type, m)) {
                    names.add(m.getName());
                }
            }
        }
        return Set.copyOf(names);
    }

    private static boolean declaredBeyond(Class<?> c, Class<?> type, Method m) {
        try {
            return c.getMethod(m.getName(), m.getParameterTypes()).getDeclaringClass() != type;
        } catch (NoSuchMethodException | SecurityException e) {
            return true;
        }
    }

    /** @return how many callbacks were queued for the events thread so far (tests) */
    long callbacksQueued() {
        return queued.get();
    }

    private void enqueue(Runnable callback) {
        queued.incrementAndGet();
        events.execute(callback);
    }

    /** The worker's instrumentations (for {@link AttemptObservers}, on the processor's thread). */
    List<Instrumentation> instruments() {
        return instruments;
    }

    void active(Job<T> job) {
        deliver("onActive", l -> l.onActive(job));
        instrument("jobStarted", i -> i.jobStarted(queue, job, waited(job)));
    }

    void progress(Job<T> job, Object progress) {
        deliver("onProgress", l -> l.onProgress(job, progress));
    }

    /** @param job the job as it was taken: delivered with the attempt that just ended counted */
    void completed(Job<T> job, R result) {
        deliver("onCompleted", ended(job), (l, j) -> l.onCompleted(j, result));
        finished(job, Outcome.COMPLETED, null);
    }

    /** @param job the job as it was taken: delivered with the attempt that just ended counted */
    void failed(Job<T> job, Throwable error, boolean finalFailure) {
        deliver("onFailed", ended(job), (l, j) -> l.onFailed(j, error, finalFailure));
        finished(job, finalFailure ? Outcome.FAILED : Outcome.RETRYING, error);
    }

    void stalled(String jobId) {
        deliver("onStalled", l -> l.onStalled(jobId));
        instrument("stalledRecovered", i -> i.stalledRecovered(queue, jobId));
    }

    void lockLost(Job<T> job) {
        deliver("onLockLost", l -> l.onLockLost(job));
        instrument("lockLost", i -> i.lockLost(queue, job));
    }

    void workerStarted(String worker) {
        instrument("workerStarted", i -> i.workerStarted(queue, worker));
    }

    void workerPool(String worker, java.util.concurrent.ExecutorService pool) {
        instrument("workerPool", i -> i.workerPool(queue, worker, pool));
    }

    void workerStopped(String worker) {
        instrument("workerStopped", i -> i.workerStopped(queue, worker));
    }

    void drained() {
        deliver("onDrained", WorkerListener::onDrained);
    }

    void error(Throwable error) {
        deliver("onError", l -> l.onError(error));
    }

    /**
     * Waits up to {@code timeout} for the callbacks queued so far to be delivered (not when called
     * from a callback: a listener that closes its worker).
     */
    void flush(Duration timeout) {
        if (events == null || Thread.currentThread() == eventsThread) {
            return;
        }
        CountDownLatch delivered = new CountDownLatch(1);
        events.execute(delivered::countDown);
        try {
            if (!delivered.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                log.warn("worker listeners still busy after {}ms; {} callback(s) queued", timeout.toMillis(),
                        events.getQueue().size());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private interface JobCallback<T, R> {
        void call(WorkerListener<T, ? super R> listener, Job<T> job);
    }

    private interface Callback<T, R> {
        void call(WorkerListener<T, ? super R> listener);
    }

    /** Copied on the events thread, and only when someone listens: nothing on a job's path. */
    private static <T> Supplier<Job<T>> ended(Job<T> job) {
        return () -> WireFormat.withAttemptsMade(job, job.attemptsMade() + 1);
    }

    /** The end time is read here, on the worker's thread; the rest happens on the events thread. */
    private void finished(Job<T> job, Outcome outcome, Throwable error) {
        if (instrumented.contains("jobFinished")) {
            Instant end = Instant.now();
            Supplier<Job<T>> ended = ended(job);
            enqueue(() -> {
                Job<T> j = ended.get();
                Duration took = job.processedOn().map(start -> Duration.between(start, end)).orElse(Duration.ZERO);
                Instrumentations.each(instruments, "jobFinished", i -> i.jobFinished(queue, j, outcome, took, error));
            });
        }
    }

    /**
     * Ready = added plus its delay. Only a first start: a retried job's ready time (its backoff's
     * end) and a re-run's (a stalled job's recovery, a hand-back at close) are not stored, and the
     * time since the add would count the earlier run as waiting.
     */
    private static Optional<Duration> waited(Job<?> job) {
        if (job.attemptsMade() > 0 || job.attemptsStarted() > 1 || job.stalledCount() > 0 || job.processedOn().isEmpty()) {
            return Optional.empty();
        }
        Duration d = Duration.between(job.timestamp().plus(job.delay()), job.processedOn().get());
        return Optional.of(d.isNegative() ? Duration.ZERO : d);
    }

    private void instrument(String name, java.util.function.Consumer<Instrumentation> call) {
        if (instrumented.contains(name)) {
            enqueue(() -> Instrumentations.each(instruments, name, call));
        }
    }

    private void deliver(String name, Supplier<Job<T>> job, JobCallback<T, R> callback) {
        if (listened.contains(name)) {
            enqueue(() -> {
                Job<T> j = job.get();
                delegates.forEach(l -> call(name, () -> callback.call(l, j)));
            });
        }
    }

    private void deliver(String name, Callback<T, R> callback) {
        if (listened.contains(name)) {
            enqueue(() -> delegates.forEach(l -> call(name, () -> callback.call(l))));
        }
    }

    private static void call(String name, Runnable callback) {
        try {
            callback.run();
        } catch (RuntimeException | LinkageError e) {
            log.warn("worker listener {} threw; ignored", name, e);
        }
    }
}
