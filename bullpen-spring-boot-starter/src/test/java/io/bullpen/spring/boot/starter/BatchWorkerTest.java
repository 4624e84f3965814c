package io.bullpen.spring.boot.starter;

import io.bullpen.spring.boot.test.BatchWorkerTests;
import io.bullpen.testing.BullpenTest;

/** The shared batch worker tests ({@link BatchWorkerTests}) on the Boot 3.5 line. */
@BullpenTest
class BatchWorkerTest extends BatchWorkerTests {
}
