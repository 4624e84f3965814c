package io.bullpen.spring.boot.starter;

import io.bullpen.spring.boot.test.DefaultJobOptionsPropertiesTests;
import io.bullpen.testing.BullpenTest;

/** The shared default-job-options test ({@link DefaultJobOptionsPropertiesTests}) on Boot 3.5. */
@BullpenTest
class DefaultJobOptionsPropertiesTest extends DefaultJobOptionsPropertiesTests {
}
