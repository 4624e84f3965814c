package io.bullpen.spring.boot4.starter;

import io.bullpen.spring.boot.test.DefaultJobOptionsPropertiesTests;
import io.bullpen.testing.BullpenTest;

/** The shared default-job-options test ({@link DefaultJobOptionsPropertiesTests}) on Boot 4.0. */
@BullpenTest
class DefaultJobOptionsPropertiesTest extends DefaultJobOptionsPropertiesTests {
}
