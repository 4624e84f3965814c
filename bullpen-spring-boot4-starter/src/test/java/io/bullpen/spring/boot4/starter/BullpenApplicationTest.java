package io.bullpen.spring.boot4.starter;

import io.bullpen.spring.boot.test.BullpenApplicationTests;
import io.bullpen.testing.BullpenTest;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.context.ConfigurableApplicationContext;

/** The shared whole-application test ({@link BullpenApplicationTests}) on the Boot 4.0 line. */
@BullpenTest
class BullpenApplicationTest extends BullpenApplicationTests {
    @Override
    protected String bullpenHealthStatus(ConfigurableApplicationContext app) {
        var health = app.getBean(HealthEndpoint.class).healthForPath("bullpen");
        return health == null ? null : health.getStatus().getCode();
    }
}
