package io.bullpen.spring.boot.starter;

import io.bullpen.spring.boot.test.StarterWithActuatorTests;
import io.bullpen.testing.BullpenTest;

/** The shared test ({@link StarterWithActuatorTests}) on Boot 3.5: this starter plus spring-boot-starter-actuator. */
@BullpenTest
class StarterWithActuatorTest extends StarterWithActuatorTests {
}
