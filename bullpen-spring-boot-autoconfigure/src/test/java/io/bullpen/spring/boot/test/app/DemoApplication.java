package io.bullpen.spring.boot.test.app;

import io.bullpen.spring.BullpenScheduler;
import io.bullpen.spring.BullpenWorker;
import io.bullpen.worker.JobContext;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.stereotype.Component;

/** A real application: component scan, auto-configuration from the starter's imports, Actuator. */
@SpringBootApplication
public class DemoApplication {
    /** The job data. */
    public record Report(String day) {
    }

    /** A worker method with a cron scheduler. */
    @Component
    public static class Reports {
        /**
         * @param ctx the job
         * @return the result
         */
        @BullpenWorker(queue = "reports", concurrency = "${reports.concurrency:3}")
        @BullpenScheduler(id = "nightly", cron = "0 2 * * *", zone = "Europe/Berlin", data = "{\"day\":\"today\"}")
        public String report(JobContext<Report> ctx) {
            Report r = ctx.job().data();
            return "report for " + (r == null ? "today" : r.day());
        }
    }
}
