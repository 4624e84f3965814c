package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.JobState;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A batch worker's calls, against {@link FakeWorkerStore}: one take for every job slot, a
 * batch's results in one finish call whatever their number, and the slots balanced at the end.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BatchOnFakeStoreTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final FakeWorkerStore store = new FakeWorkerStore();
    private Worker<String, String> worker;

    @AfterEach
    void closeWorker() {
        if (worker != null) {
            worker.close(Duration.ofSeconds(5));
        }
    }

    @Test
    void aBatchOfSixtyIsRecordedInOneFinishCallAndItsSlotsBalance() {
        for (int i = 0; i < 60; i++) {
            store.add("j" + i);
        }
        List<Integer> sizes = new CopyOnWriteArrayList<>();
        worker = Worker.builder(store, "fake", String.class).blockTimeout(Duration.ofSeconds(5))
                .batchProcessor((JobBatch<String, String> batch) -> {
                    sizes.add(batch.jobs().size());
                    batch.fail(batch.jobs().get(0), new IllegalStateException("first one fails"));
                    return "ok";
                })
                .batch(JobBatchOptions.of(60))
                .build().start();

        await().atMost(WAIT).until(() -> store.finished.size() == 60);
        assertThat(sizes).containsExactly(60);
        assertThat(store.finishBatchSizes).as("one finish call for the whole batch, above the per-job cap of "
                + Finisher.MAX_BATCH).containsExactly(60);
        assertThat(store.finished.stream().filter(r -> r.state() == JobState.COMPLETED).count()).isEqualTo(59);
        await().atMost(WAIT).until(() -> worker.activeCount() == 0);
        worker.slots().checkInvariant(true);
    }
}
