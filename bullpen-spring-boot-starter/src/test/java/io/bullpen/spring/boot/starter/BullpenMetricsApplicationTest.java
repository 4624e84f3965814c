package io.bullpen.spring.boot.starter;

import io.bullpen.spring.boot.test.BullpenMetricsApplicationTests;
import io.bullpen.testing.BullpenTest;

/** The shared metrics test ({@link BullpenMetricsApplicationTests}) on Boot 3.5: Actuator's own registry. */
@BullpenTest
class BullpenMetricsApplicationTest extends BullpenMetricsApplicationTests {
}
