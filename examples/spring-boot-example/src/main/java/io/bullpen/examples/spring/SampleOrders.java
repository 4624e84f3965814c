package io.bullpen.examples.spring;

import io.bullpen.Queue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.stereotype.Component;

/** Places {@code example.sample-orders} orders at startup and says where to look. */
@Component
public class SampleOrders implements ApplicationRunner {
    private static final Logger log = LoggerFactory.getLogger(SampleOrders.class);

    private final Queue<Order> orders;
    private final WebServerApplicationContext context;
    private final int count;

    /**
     * @param orders the orders queue
     * @param context for the HTTP port
     * @param count how many orders to place
     */
    public SampleOrders(Queue<Order> orders, WebServerApplicationContext context,
            @Value("${example.sample-orders:0}") int count) {
        this.orders = orders;
        this.context = context;
        this.count = count;
    }

    @Override
    public void run(ApplicationArguments args) {
        for (int i = 1; i <= count; i++) {
            orders.add("pack", new Order("sample-" + i, 3 * i));
        }
        int port = context.getWebServer().getPort();
        log.info("placed {} sample orders; try: curl -XPOST -H 'Content-Type: application/json' "
                + "-d '{\"id\":\"o-1\",\"items\":5}' http://127.0.0.1:{}/orders", count, port);
        log.info("health: http://127.0.0.1:{}/actuator/health  meters: http://127.0.0.1:{}/actuator/metrics/bullpen.queue.jobs",
                port, port);
    }
}
