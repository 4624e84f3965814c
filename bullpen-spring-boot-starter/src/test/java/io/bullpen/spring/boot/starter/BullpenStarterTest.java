package io.bullpen.spring.boot.starter;

import io.bullpen.spring.boot.test.BullpenStarterTests;
import io.bullpen.testing.BullpenTest;
import java.util.Map;
import io.bullpen.spring.boot.actuate.BullpenHealthAutoConfiguration;
import org.springframework.boot.actuate.health.HealthIndicator;

/** The shared starter tests ({@link BullpenStarterTests}) on the Boot 3.5 line. */
@BullpenTest
class BullpenStarterTest extends BullpenStarterTests {
    @Override
    protected Class<?> healthAutoConfiguration() {
        return BullpenHealthAutoConfiguration.class;
    }

    @Override
    protected Class<?> healthIndicatorType() {
        return HealthIndicator.class;
    }

    @Override
    protected String healthStatus(Object indicator) {
        return ((HealthIndicator) indicator).health().getStatus().getCode();
    }

    @Override
    protected Map<String, Object> healthDetails(Object indicator) {
        return ((HealthIndicator) indicator).health().getDetails();
    }
}
