package io.bullpen.bench.peer.redisson;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.redisson.api.RBlockingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Consumer threads on an RBlockingQueue, each looping on {@code poll(1 s)} (BLPOP with a
 * one-second timeout, so that they notice a stop) and handing each message to a callback.
 */
final class PollingConsumers {
    private static final Logger log = LoggerFactory.getLogger(PollingConsumers.class);

    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running = true;

    private PollingConsumers() {
    }

    static PollingConsumers start(RBlockingQueue<String> queue, int concurrency, Consumer<String> onMessage) {
        PollingConsumers consumers = new PollingConsumers();
        for (int i = 0; i < concurrency; i++) {
            Thread thread = new Thread(() -> consumers.loop(queue, onMessage), "redisson-consumer-" + i);
            thread.setDaemon(true);
            consumers.threads.add(thread);
            thread.start();
        }
        return consumers;
    }

    private void loop(RBlockingQueue<String> queue, Consumer<String> onMessage) {
        while (running) {
            try {
                String message = queue.poll(1, TimeUnit.SECONDS);
                if (message != null) {
                    onMessage.accept(message);
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                if (running) {
                    log.warn("consumer: {}", e.toString());
                }
            }
        }
    }

    void stop() throws InterruptedException {
        running = false;
        for (Thread thread : threads) {
            thread.join(5_000);
        }
    }
}
