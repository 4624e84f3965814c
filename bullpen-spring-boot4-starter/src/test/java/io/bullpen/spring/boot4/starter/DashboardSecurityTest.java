package io.bullpen.spring.boot4.starter;

import io.bullpen.spring.boot.test.DashboardSecurityTests;
import io.bullpen.testing.BullpenTest;

/** The shared Spring Security test ({@link DashboardSecurityTests}) on the Boot 4.0 line (Spring Security 7). */
@BullpenTest
class DashboardSecurityTest extends DashboardSecurityTests {
}
