package io.bullpen.spring.boot.starter;

import io.bullpen.spring.boot.test.DeclaredSettingsTests;
import io.bullpen.testing.BullpenTest;

/** The shared declared-settings test ({@link DeclaredSettingsTests}) on the Boot 3.5 line. */
@BullpenTest
class DeclaredSettingsTest extends DeclaredSettingsTests {
}
