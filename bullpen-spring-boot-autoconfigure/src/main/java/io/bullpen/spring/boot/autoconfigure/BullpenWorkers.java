package io.bullpen.spring.boot.autoconfigure;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.bullpen.Queue;
import io.bullpen.client.Bullpen;
import io.bullpen.spring.QueueRegistry;
import io.bullpen.worker.JobBatch;
import io.bullpen.worker.JobBatchOptions;
import io.bullpen.worker.JobContext;
import io.bullpen.worker.Worker;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.util.ReflectionUtils;

/**
 * Runs the {@code @BullpenWorker} methods: on start writes the queue settings, removes what this
 * application declared before and no longer declares ({@link DeclaredConfiguration}), upserts
 * the methods' schedulers and starts one worker per method; on stop (a phase inside the web server's, so the server still answers while
 * jobs drain) stops taking jobs, waits up to {@code bullpen.worker.shutdown-timeout} for the
 * running ones and hands the rest back to their queues at once (see {@link Worker#close(Duration)}).
 */
public final class BullpenWorkers implements SmartLifecycle {
    /** Stops before the web server's graceful shutdown ({@code DEFAULT_PHASE - 1024}) and starts after it. */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 512;
    private static final Logger log = LoggerFactory.getLogger(BullpenWorkers.class);

    private final Bullpen bullpen;
    private final QueueRegistry queues;
    private final BullpenProperties properties;
    private final List<WorkerMethod> methods;
    private final BeanFactory beanFactory;
    private final DeclaredConfiguration declared;
    private final ObjectMapper json = new ObjectMapper().findAndRegisterModules();
    /** The batch options of each batch worker method, by method (identity). */
    private final Map<WorkerMethod, JobBatchOptions> batchOptions = new IdentityHashMap<>();
    private final List<Worker<?, ?>> workers = new ArrayList<>();
    private volatile boolean running;
    private volatile boolean draining;

    BullpenWorkers(Bullpen bullpen, QueueRegistry queues, BullpenProperties properties, List<WorkerMethod> methods,
                   BeanFactory beanFactory, String configOwner) {
        this.bullpen = bullpen;
        this.declared = new DeclaredConfiguration(bullpen, properties, configOwner, methods);
        this.queues = queues;
        this.properties = properties;
        this.methods = methods;
        this.beanFactory = beanFactory;
        // A bad rate limit fails the context now, not half-way through start().
        properties.getQueues().forEach((name, s) -> {
            if (s.getRateLimit() != null) {
                QueueSettingsApplier.rateLimit(name, s.getRateLimit());
            }
        });
        // Likewise bad batch settings, and batch properties of a queue whose methods take one job each.
        for (WorkerMethod m : methods) {
            if (m.batch() != null) {
                try {
                    batchOptions.put(m, m.batch().options(m.queue(), properties.getQueues().get(m.queue())));
                } catch (IllegalArgumentException e) {
                    throw new IllegalStateException("@BullpenWorker " + m.describe() + ": " + e.getMessage(), e);
                }
            }
        }
        properties.getQueues().forEach((name, s) -> {
            List<WorkerMethod> ofQueue = methods.stream().filter(m -> m.queue().equals(name)).toList();
            if (s.hasBatchSettings() && !ofQueue.isEmpty() && ofQueue.stream().allMatch(m -> m.batch() == null)) {
                throw new IllegalStateException("bullpen.queues." + name + ".batch-* apply to a batch worker, a "
                        + "@BullpenWorker method taking a JobBatch<T, R>, but queue \"" + name + "\" has only "
                        + ofQueue.stream().map(WorkerMethod::describe).toList() + ", taking one job each");
            }
        });
    }

    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        declared.applyQueueSettings();
        declared.removeUndeclared();
        if (properties.getWorker().isEnabled()) {
            for (WorkerMethod m : methods) {
                try {
                    upsertScheduler(m);
                    workers.add(startWorker(m));
                } catch (RuntimeException e) {
                    workers.forEach(w -> w.close(Duration.ZERO));
                    workers.clear();
                    throw new IllegalStateException("@BullpenWorker " + m.describe() + ": " + e.getMessage(), e);
                }
            }
        } else if (!methods.isEmpty()) {
            log.info("bullpen.worker.enabled=false: {} @BullpenWorker method(s) not started", methods.size());
        }
        draining = false;
        running = true;
    }

    private void upsertScheduler(WorkerMethod m) {
        WorkerMethod.Schedule s = m.scheduler();
        if (s == null) {
            return;
        }
        Queue<Object> queue = queues.queue(m.queue(), m.dataTypeReference());
        Object data;
        try {
            data = s.dataJson() == null ? null : json.readValue(s.dataJson(), json.constructType(m.dataType().getType()));
        } catch (Exception e) {
            throw new IllegalArgumentException("@BullpenScheduler \"" + s.id() + "\": data is not a "
                    + m.dataType() + " in JSON: " + e.getMessage(), e);
        }
        declared.upsertScheduler(queue, s, data);
        log.info("job scheduler {} of queue {} upserted ({})", s.id(), m.queue(), s.repeat());
    }

    private Worker<?, ?> startWorker(WorkerMethod m) {
        Object bean = beanFactory.getBean(m.beanName());
        Method method = AopUtils.selectInvocableMethod(m.method(), bean.getClass());
        ReflectionUtils.makeAccessible(method);
        BullpenProperties.QueueSettings settings = properties.getQueues().get(m.queue());
        Integer concurrency = m.concurrency() != null ? m.concurrency()
                : settings != null && settings.getConcurrency() != null ? settings.getConcurrency() : null;
        boolean context = m.takesContext();
        JobBatchOptions batch = batchOptions.get(m);
        return bullpen.worker(m.queue(), m.dataTypeReference(), builder -> {
            builder.closeTimeout(properties.getWorker().getShutdownTimeout());
            if (concurrency != null) {
                builder.concurrency(concurrency);
            }
            if (settings != null) {
                if (settings.getLockDuration() != null) {
                    builder.lockDuration(settings.getLockDuration());
                }
                if (settings.getStalledInterval() != null) {
                    builder.stalledInterval(settings.getStalledInterval());
                }
                if (settings.getMaxStalledCount() != null) {
                    builder.maxStalledCount(settings.getMaxStalledCount());
                }
            }
            if (batch != null) {
                return builder.batchProcessor((JobBatch<Object, Object> jobs) -> invoke(bean, method, jobs)).batch(batch);
            }
            return builder.processor((JobContext<Object> ctx) -> invoke(bean, method, context ? ctx : ctx.job().data()));
        }).start();
    }

    private static Object invoke(Object bean, Method method, Object argument) throws Exception {
        try {
            return method.invoke(bean, argument);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Exception ex) {
                throw ex;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }

    @Override
    public void stop() {
        closeWorkers();
    }

    @Override
    public void stop(Runnable callback) {
        draining = true;
        Thread t = new Thread(() -> {
            try {
                closeWorkers();
            } finally {
                callback.run();
            }
        }, "bullpen-shutdown");
        t.setDaemon(true);
        t.start();
    }

    /** Closes the workers in parallel: each waits up to the shutdown timeout, then hands its jobs back. */
    private void closeWorkers() {
        List<Worker<?, ?>> closing;
        synchronized (this) {
            draining = true;
            closing = new ArrayList<>(workers);
            workers.clear();
        }
        Duration timeout = properties.getWorker().getShutdownTimeout();
        List<CompletableFuture<Void>> closes = new ArrayList<>();
        for (Worker<?, ?> w : closing) {
            CompletableFuture<Void> done = new CompletableFuture<>();
            Thread t = new Thread(() -> {
                try {
                    w.close(timeout);
                } finally {
                    done.complete(null);
                }
            }, "bullpen-close-" + w.queue());
            t.setDaemon(true);
            t.start();
            closes.add(done);
        }
        CompletableFuture.allOf(closes.toArray(CompletableFuture[]::new)).join();
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    /** @return true from the moment shutdown begins: the health indicator reports OUT_OF_SERVICE */
    public boolean isDraining() {
        return draining;
    }

    /** @return the workers started (empty before start and after stop) */
    public synchronized List<Worker<?, ?>> workers() {
        return List.copyOf(workers);
    }
}
