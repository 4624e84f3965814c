package io.bullpen.worker;

import com.fasterxml.jackson.databind.JavaType;
import java.util.concurrent.ExecutorService;

/**
 * How a worker runs its jobs, fixed at start: the type their data is read as, the processor, and
 * the executor it runs on.
 *
 * @param handoff hands jobs to an executor the application supplied (see {@link JobRunner}); null
 *     for the worker's own pool
 */
record Processing<T, R>(JavaType dataType, JobProcessor<T, R> processor, ExecutorService executor,
                        ExecutorService handoff) {
}
