package io.bullpen.worker;

import io.bullpen.Job;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Calls the user's listener so that a throwing callback is logged and never affects a job. */
final class SafeListener<T, R> {
    private static final Logger log = LoggerFactory.getLogger(SafeListener.class);
    private final WorkerListener<T, R> delegate;

    SafeListener(WorkerListener<T, R> delegate) {
        this.delegate = delegate;
    }

    void active(Job<T> job) {
        call("onActive", () -> delegate.onActive(job));
    }

    void progress(Job<T> job, Object progress) {
        call("onProgress", () -> delegate.onProgress(job, progress));
    }

    void completed(Job<T> job, R result) {
        call("onCompleted", () -> delegate.onCompleted(job, result));
    }

    void failed(Job<T> job, Throwable error, boolean finalFailure) {
        call("onFailed", () -> delegate.onFailed(job, error, finalFailure));
    }

    void stalled(String jobId) {
        call("onStalled", () -> delegate.onStalled(jobId));
    }

    void lockLost(Job<T> job) {
        call("onLockLost", () -> delegate.onLockLost(job));
    }

    void drained() {
        call("onDrained", delegate::onDrained);
    }

    void error(Throwable error) {
        call("onError", () -> delegate.onError(error));
    }

    private static void call(String name, Runnable callback) {
        try {
            callback.run();
        } catch (RuntimeException | LinkageError e) {
            log.warn("worker listener {} threw; ignored", name, e);
        }
    }
}
