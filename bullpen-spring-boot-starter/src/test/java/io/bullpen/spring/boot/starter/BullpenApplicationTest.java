package io.bullpen.spring.boot.starter;

import io.bullpen.spring.boot.test.BullpenApplicationTests;
import io.bullpen.testing.BullpenTest;
import org.springframework.boot.actuate.health.HealthEndpoint;
import org.springframework.context.ConfigurableApplicationContext;

/** The shared whole-application test ({@link BullpenApplicationTests}) on the Boot 3.5 line. */
@BullpenTest
class BullpenApplicationTest extends BullpenApplicationTests {
    @Override
    protected String bullpenHealthStatus(ConfigurableApplicationContext app) {
        var health = app.getBean(HealthEndpoint.class).healthForPath("bullpen");
        return health == null ? null : health.getStatus().getCode();
    }
}
