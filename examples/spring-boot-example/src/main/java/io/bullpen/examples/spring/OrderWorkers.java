package io.bullpen.examples.spring;

import io.bullpen.spring.BullpenScheduler;
import io.bullpen.spring.BullpenWorker;
import io.bullpen.worker.JobContext;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/** The application's workers: plain bean methods, one Worker each, started with the context. */
@Component
public class OrderWorkers {
    private static final Logger log = LoggerFactory.getLogger(OrderWorkers.class);

    private final long packMillisPerItem;

    /**
     * @param packMillisPerItem how long packing one item takes (the work the example stands for)
     */
    public OrderWorkers(@Value("${example.pack-millis-per-item:100}") long packMillisPerItem) {
        this.packMillisPerItem = packMillisPerItem;
    }

    /**
     * Packs an order, reporting progress per item; its return value is the job's result.
     *
     * @param ctx the job, for its data, progress and log
     * @return the result stored with the job
     * @throws InterruptedException when the application stops mid-job (the job goes back to its queue)
     */
    @BullpenWorker(queue = "orders", concurrency = "${example.orders.concurrency:4}")
    public String pack(JobContext<Order> ctx) throws InterruptedException {
        Order order = ctx.job().data();
        for (int item = 1; item <= order.items(); item++) {
            Thread.sleep(packMillisPerItem);
            ctx.updateProgress(100 * item / order.items());
        }
        ctx.log("packed " + order.items() + " items");
        log.info("packed order {} ({} items)", order.id(), order.items());
        return "packed " + order.id();
    }

    /**
     * Runs every 30 s on a job scheduler upserted at startup (one schedule however many instances run).
     *
     * @param data the scheduler's data
     * @return the result stored with the job
     */
    @BullpenWorker(queue = "reports")
    @BullpenScheduler(id = "stock-report", every = "30s", data = "\"stock\"")
    public String report(String data) {
        String line = data + " report at " + LocalTime.now().truncatedTo(ChronoUnit.SECONDS);
        log.info(line);
        return line;
    }
}
