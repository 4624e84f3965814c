package io.bullpen.spring.boot4.starter;

import io.bullpen.spring.boot.test.BullpenMetricsApplicationTests;
import io.bullpen.testing.BullpenTest;

/** The shared metrics test ({@link BullpenMetricsApplicationTests}) on Boot 4.0: Actuator's own registry. */
@BullpenTest
class BullpenMetricsApplicationTest extends BullpenMetricsApplicationTests {
}
