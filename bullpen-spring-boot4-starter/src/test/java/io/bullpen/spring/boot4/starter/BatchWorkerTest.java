package io.bullpen.spring.boot4.starter;

import io.bullpen.spring.boot.test.BatchWorkerTests;
import io.bullpen.testing.BullpenTest;

/** The shared batch worker tests ({@link BatchWorkerTests}) on the Boot 4.0 line. */
@BullpenTest
class BatchWorkerTest extends BatchWorkerTests {
}
