package io.bullpen.spring.boot.starter;

import io.bullpen.spring.boot.test.DashboardServletTests;
import io.bullpen.testing.BullpenTest;

/** The shared dashboard-under-the-servlet-server test ({@link DashboardServletTests}) on Boot 3.5 with Tomcat. */
@BullpenTest
class DashboardServletTest extends DashboardServletTests {
}
