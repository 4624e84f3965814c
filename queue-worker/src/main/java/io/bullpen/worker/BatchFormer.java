package io.bullpen.worker;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A batch worker's batches, formed from the jobs its takes give it (each job holds a slot of its
 * own, {@code concurrency * size} in all; see {@link Slots}):
 * 1. a job taken joins the open batch of its key (one for all jobs, or one per group with
 *    {@code sameGroup}); a batch that reaches {@code size} closes;
 * 2. a batch is ready when it is full, when a take's jobs were all handed out ({@link #delivered})
 *    and it has at least {@code minSize}, or when {@code maxWait} passed since its first job;
 * 3. ready batches start in the order they were opened, one per free batch slot
 *    ({@code concurrency} of them), on the worker's executor ({@link BatchRun}); a ready batch
 *    waiting for a slot still takes jobs up to {@code size};
 * 4. at start, a job past its expiry deadline is given back unstarted (the next take fails it as
 *    expired); on close, every job of a batch not started is given back at once.
 */
final class BatchFormer<T, R> {
    private static final Logger log = LoggerFactory.getLogger(BatchFormer.class);

    /** A batch taking jobs. */
    private static final class Forming<T> {
        final String key;
        final List<ActiveJob<T>> jobs = new ArrayList<>();
        boolean ready;
        ScheduledFuture<?> maxWait;

        Forming(String key) {
            this.key = key;
        }
    }

    private final WorkerSettings settings;
    private final Processing<T, R> processing;
    private final JobBatchOptions options;
    private final Intake intake;
    private final ScheduledExecutorService scheduler;
    private final SafeListener<T, R> listener;
    private final JobRunner<T, R> runner;
    /** Batches not started, oldest first. Guarded by this. */
    private final List<Forming<T>> forming = new ArrayList<>();
    /** The batch that takes the next job, per key. Guarded by this. */
    private final Map<String, Forming<T>> open = new HashMap<>();
    /** Batch slots free. Guarded by this. */
    private int free;
    private final Set<BatchRun<T, R>> running = ConcurrentHashMap.newKeySet();

    BatchFormer(WorkerSettings settings, Processing<T, R> processing, Intake intake, ScheduledExecutorService scheduler,
                SafeListener<T, R> listener, JobRunner<T, R> runner) {
        this.settings = settings;
        this.processing = processing;
        this.options = processing.batch();
        this.intake = intake;
        this.scheduler = scheduler;
        this.listener = listener;
        this.runner = runner;
        this.free = settings.concurrency();
    }

    /** A job taken (it holds a slot) joins a batch. */
    void add(ActiveJob<T> attempt) {
        List<Forming<T>> start;
        synchronized (this) {
            if (intake.running()) {
                String key = options.sameGroup() && attempt.group != null ? "g:" + attempt.group : "";
                Forming<T> f = open.get(key);
                if (f == null) {
                    f = new Forming<>(key);
                    open.put(key, f);
                    forming.add(f);
                    armMaxWait(f);
                }
                f.jobs.add(attempt);
                if (f.jobs.size() >= options.size()) {
                    open.remove(key);
                    f.ready = true;
                }
                start = takeReady();
            } else {
                start = null;
            }
        }
        if (start == null) {
            runner.giveBack(attempt);
            return;
        }
        start.forEach(this::launch);
    }

    private void armMaxWait(Forming<T> f) {
        if (options.minSize() <= 1) {
            return;
        }
        try {
            f.maxWait = scheduler.schedule(() -> waited(f), options.maxWait().toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closing) {
            f.ready = true;
        }
    }

    /** A take's jobs were all handed out: the batches with at least minSize jobs are ready. */
    void delivered() {
        List<Forming<T>> start;
        synchronized (this) {
            for (Forming<T> f : forming) {
                if (f.jobs.size() >= options.minSize()) {
                    f.ready = true;
                }
            }
            start = takeReady();
        }
        start.forEach(this::launch);
    }

    /** maxWait passed since the batch's first job: it runs with what it has. */
    private void waited(Forming<T> f) {
        List<Forming<T>> start;
        synchronized (this) {
            f.ready = true;
            start = takeReady();
        }
        start.forEach(this::launch);
    }

    /** A batch's processor returned: its batch slot is free. */
    void ended(BatchRun<T, R> run) {
        if (run != null) {
            running.remove(run);
        }
        List<Forming<T>> start;
        synchronized (this) {
            free++;
            start = takeReady();
        }
        start.forEach(this::launch);
    }

    /** @return the ready batches that get a free batch slot now, taken out of forming; guarded by this */
    private List<Forming<T>> takeReady() {
        if (free == 0 || forming.isEmpty()) {
            return List.of();
        }
        List<Forming<T>> start = new ArrayList<>(1);
        for (int i = 0; i < forming.size() && free > 0; ) {
            Forming<T> f = forming.get(i);
            if (!f.ready) {
                i++;
                continue;
            }
            forming.remove(i);
            open.remove(f.key, f);
            if (f.maxWait != null) {
                f.maxWait.cancel(false);
            }
            free--;
            start.add(f);
        }
        return start;
    }

    /** Starts a batch that holds a batch slot: its expired jobs go back, the rest run. */
    private void launch(Forming<T> f) {
        List<ActiveJob<T>> jobs = new ArrayList<>(f.jobs.size());
        for (ActiveJob<T> attempt : f.jobs) {
            if (!intake.running() || runner.expired(io.bullpen.internal.WireFormat.fields(attempt.job))) {
                // Closing, or held past its expiry deadline: back to its line unstarted.
                runner.giveBack(attempt);
            } else {
                jobs.add(attempt);
            }
        }
        if (jobs.isEmpty()) {
            ended(null);
            return;
        }
        BatchRun<T, R> run = new BatchRun<>(jobs, settings, processing.batchProcessor(), scheduler, listener, runner,
                this);
        running.add(run);
        try {
            if (processing.handoff() == null) {
                processing.executor().execute(run);
            } else {
                // An application's executor may block or run the task in the caller: hand it over apart.
                processing.handoff().execute(() -> {
                    try {
                        processing.executor().execute(run);
                    } catch (RejectedExecutionException e) {
                        rejected(run, jobs);
                    }
                });
            }
        } catch (RejectedExecutionException e) {
            rejected(run, jobs);
        }
    }

    private void rejected(BatchRun<T, R> run, List<ActiveJob<T>> jobs) {
        log.info("worker {}: a batch of {} job(s) could not start (executor shut down); given back", settings.name(),
                jobs.size());
        jobs.forEach(runner::giveBack);
        ended(run);
    }

    /** On close: every job of a batch not started goes back to its line at once, unstarted. */
    void giveBackForming() {
        List<ActiveJob<T>> back = new ArrayList<>();
        synchronized (this) {
            for (Forming<T> f : forming) {
                if (f.maxWait != null) {
                    f.maxWait.cancel(false);
                }
                back.addAll(f.jobs);
            }
            forming.clear();
            open.clear();
        }
        back.forEach(runner::giveBack);
    }

    /** A forced close: the threads of the batches still running are interrupted. */
    void interruptRunning() {
        running.forEach(BatchRun::interrupt);
    }
}
