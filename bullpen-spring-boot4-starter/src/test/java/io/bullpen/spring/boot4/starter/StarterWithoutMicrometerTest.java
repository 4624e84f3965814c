package io.bullpen.spring.boot4.starter;

import io.bullpen.spring.boot.test.StarterWithoutMicrometerTests;
import io.bullpen.testing.BullpenTest;

/**
 * The shared test ({@link StarterWithoutMicrometerTests}) on Boot 4.0; run by this module's
 * {@code starter-without-micrometer} surefire execution, whose class path leaves out
 * micrometer-core and Actuator.
 */
@BullpenTest
class StarterWithoutMicrometerTest extends StarterWithoutMicrometerTests {
}
