package io.bullpen.worker;

import com.fasterxml.jackson.databind.JavaType;
import java.util.concurrent.ExecutorService;

/**
 * How a worker runs its jobs, fixed at start: the type their data is read as, the processor (or
 * the batch processor and its batches), and the executor it runs on.
 *
 * @param processor the per-job processor; null for a batch worker
 * @param batchProcessor the batch processor; null for a per-job worker
 * @param batch how batches are formed; null for a per-job worker
 * @param handoff hands jobs to an executor the application supplied (see {@link JobRunner}); null
 *     for the worker's own pool
 */
record Processing<T, R>(JavaType dataType, JobProcessor<T, R> processor, BatchProcessor<T, R> batchProcessor,
                        JobBatchOptions batch, ExecutorService executor, ExecutorService handoff) {
}
