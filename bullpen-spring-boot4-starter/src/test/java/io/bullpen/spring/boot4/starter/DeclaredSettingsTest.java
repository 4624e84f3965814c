package io.bullpen.spring.boot4.starter;

import io.bullpen.spring.boot.test.DeclaredSettingsTests;
import io.bullpen.testing.BullpenTest;

/** The shared declared-settings test ({@link DeclaredSettingsTests}) on the Boot 4.0 line. */
@BullpenTest
class DeclaredSettingsTest extends DeclaredSettingsTests {
}
