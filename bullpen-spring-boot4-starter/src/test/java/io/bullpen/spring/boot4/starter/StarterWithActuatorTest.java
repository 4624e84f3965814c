package io.bullpen.spring.boot4.starter;

import io.bullpen.spring.boot.test.StarterWithActuatorTests;
import io.bullpen.testing.BullpenTest;

/** The shared test ({@link StarterWithActuatorTests}) on Boot 4.0: this starter plus spring-boot-starter-actuator. */
@BullpenTest
class StarterWithActuatorTest extends StarterWithActuatorTests {
}
