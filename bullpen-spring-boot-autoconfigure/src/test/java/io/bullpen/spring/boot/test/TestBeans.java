package io.bullpen.spring.boot.test;

import io.bullpen.Queue;
import io.bullpen.UnrecoverableJobException;
import io.bullpen.spring.BullpenScheduler;
import io.bullpen.spring.BullpenWorker;
import io.bullpen.worker.JobBatch;
import io.bullpen.worker.JobContext;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.springframework.beans.factory.annotation.Qualifier;

/** The application beans the starter tests of both Boot lines run. */
public final class TestBeans {
    private TestBeans() {
    }

    public record Order(String id, int amount) {
    }

    public record Invoice(String number) {
    }

    /** A worker method taking the data and returning the result, one taking the JobContext. */
    public static class Shipping {
        public final List<String> billed = new CopyOnWriteArrayList<>();

        @BullpenWorker(queue = "orders", concurrency = "${orders.concurrency:2}")
        public String ship(Order order) {
            return "shipped " + order.id() + " for " + order.amount();
        }

        @BullpenWorker(queue = "invoices")
        @BullpenScheduler(id = "hourly-invoice", every = "1h", data = "{\"number\":\"scheduled\"}")
        public void bill(JobContext<Invoice> ctx) {
            ctx.log("billing " + ctx.job().data().number());
            billed.add(ctx.job().data().number());
        }
    }

    /** Injects queues by name (qualifier) and by generic type only. */
    public static class Producer {
        public final Queue<Order> orders;
        public final Queue<Invoice> invoices;

        public Producer(@Qualifier("orders") Queue<Order> orders, Queue<Invoice> invoices) {
            this.orders = orders;
            this.invoices = invoices;
        }
    }

    /** Blocks in its job until interrupted: for shutdown tests. */
    public static class Slow {
        public final CountDownLatch started = new CountDownLatch(1);

        @BullpenWorker(queue = "slow")
        public String run(String data) throws InterruptedException {
            started.countDown();
            Thread.sleep(60_000);
            return "never";
        }
    }

    public static class BadCron {
        @BullpenWorker(queue = "reports")
        @BullpenScheduler(id = "nightly", cron = "not a cron")
        public void run(String data) {
        }
    }

    public static class SchedulerWithoutData {
        @BullpenWorker(queue = "reports")
        @BullpenScheduler(id = "daily-report", every = "1h")
        public void run(String data) {
        }
    }

    public static class UnknownZone {
        @BullpenWorker(queue = "reports")
        @BullpenScheduler(id = "nightly", cron = "0 2 * * *", zone = "Mars/Olympus")
        public void run(String data) {
        }
    }

    public static class TwoParameters {
        @BullpenWorker(queue = "reports")
        public void run(String data, String more) {
        }
    }

    public static class BadConcurrency {
        @BullpenWorker(queue = "reports", concurrency = "${reports.concurrency:many}")
        public void run(String data) {
        }
    }

    public record Row(String id, int n) {
    }

    /**
     * A batch worker: fails the rows whose n is a multiple of 3, completes the even ones with a
     * value of their own, and returns the value of the rest. Its batch attributes are placeholders
     * that resolve to empty (then the properties apply) unless a test sets them.
     */
    public static class Rows {
        public final List<Integer> batchSizes = new CopyOnWriteArrayList<>();

        @BullpenWorker(queue = "rows", batchSize = "${rows.batch-size:}", batchMinSize = "${rows.batch-min-size:}",
                batchMaxWait = "${rows.batch-max-wait:}")
        public String insert(JobBatch<Row, String> batch) {
            batchSizes.add(batch.jobs().size());
            for (JobContext<Row> job : batch.jobs()) {
                Row row = job.job().data();
                if (row.n() % 3 == 0) {
                    batch.fail(job, new UnrecoverableJobException("row " + row.id() + " refused"));
                } else if (row.n() % 2 == 0) {
                    batch.complete(job, "row " + row.id() + " inserted alone");
                }
            }
            return "inserted in a batch of " + batch.jobs().size();
        }
    }

    /** A batch worker with no result. */
    public static class Pings {
        public final List<String> sent = new CopyOnWriteArrayList<>();

        @BullpenWorker(queue = "pings", batchSize = "4")
        public void send(JobBatch<String, Void> batch) {
            batch.jobs().forEach(job -> sent.add(job.job().data()));
        }
    }

    /** A per-job worker whose job data is a list. */
    public static class ListCounter {
        @BullpenWorker(queue = "lists")
        public int count(List<String> items) {
            return items.size();
        }
    }

    public static class BatchSizeOnAJobMethod {
        @BullpenWorker(queue = "reports", batchSize = "5")
        public void run(String data) {
        }
    }

    public static class BatchWithData {
        @BullpenWorker(queue = "rows")
        public void insert(JobBatch<Row, Void> batch, Row row) {
        }
    }
}
