package io.bullpen.spring.boot.test.declared;

import io.bullpen.spring.BullpenScheduler;
import io.bullpen.spring.BullpenWorker;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/** An application whose scheduler method is there only while {@code ticker.declared=true}. */
@SpringBootApplication
public class DeclaringApplication {
    /** A worker method with an interval scheduler, on the queue {@code ${ticker.queue}}. */
    @Component
    @ConditionalOnProperty(name = "ticker.declared", havingValue = "true")
    public static class Ticker {
        /** @param data the job's data */
        @BullpenWorker(queue = "${ticker.queue}")
        @BullpenScheduler(id = "t", every = "2s", data = "\"tick\"")
        public void tick(String data) {
        }
    }
}
