/**
 * One client object for Bullpen, {@link io.bullpen.client.Bullpen}: it holds the Redis client,
 * the key prefix and the instrumentation, hands out queues, workers, event listeners and the
 * dashboard, and closes them all at once.
 */
module io.bullpen.client {
    requires transitive io.bullpen;
    requires transitive io.bullpen.worker;
    requires transitive io.bullpen.dashboard;
    requires org.slf4j;

    exports io.bullpen.client;
}
