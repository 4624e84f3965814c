package io.bullpen.spring.boot4.starter;

import io.bullpen.spring.boot.test.BullpenTracingAutoConfigurationTests;
import io.bullpen.testing.BullpenTest;

/** The shared tracing tests ({@link BullpenTracingAutoConfigurationTests}) on Boot 4.0. */
@BullpenTest
class BullpenTracingAutoConfigurationTest extends BullpenTracingAutoConfigurationTests {
}
