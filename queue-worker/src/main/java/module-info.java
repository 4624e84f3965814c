/**
 * Bullpen workers: {@link io.bullpen.worker.Worker} runs a queue's jobs through a processor, with
 * concurrency, lock renewal, stalled-job recovery, retries and timeouts.
 */
module io.bullpen.worker {
    requires transitive io.bullpen;
    requires java.management;   // the worker's default name: the JVM's pid@host
    requires org.slf4j;

    exports io.bullpen.worker;
}
