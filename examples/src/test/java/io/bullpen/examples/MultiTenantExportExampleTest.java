package io.bullpen.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.GroupInfo;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@BullpenTest
class MultiTenantExportExampleTest {

    @BeforeEach
    void needsFlowControl(BullpenTestContext ctx) {
    }

    @Test
    void smallTenantsAreServedWhileTheBigBacklogRunsOneAtATime(BullpenTestContext ctx) {
        // A backlog of 30 for the big tenant (1.5 s one at a time), then 4 small tenants with one export each.
        try (MultiTenantExportExample example = new MultiTenantExportExample(30, 4, Duration.ofHours(1), Duration.ofMillis(50))) {
            example.start(ctx.redisson());

            await().atMost(Duration.ofSeconds(10)).until(() -> List.of(1, 2, 3, 4).stream()
                    .allMatch(t -> example.completed("tenant-" + t) == 1));
            // Not starved: every small tenant's export is done long before the backlog.
            assertThat(example.completed(MultiTenantExportExample.BIG_TENANT)).isLessThan(30);
            GroupInfo big = example.exports().getGroup(MultiTenantExportExample.BIG_TENANT).orElseThrow();
            assertThat(big.waiting()).isPositive();
            assertThat(big.active()).isLessThanOrEqualTo(1);

            await().atMost(Duration.ofSeconds(30)).until(() -> example.completed(MultiTenantExportExample.BIG_TENANT) == 30);
            // Per-tenant concurrency 1, across the worker's three slots.
            assertThat(example.maxRunning()).containsOnlyKeys("tenant-1", "tenant-2", "tenant-3", "tenant-4", "tenant-big")
                    .allSatisfy((tenant, max) -> assertThat(max).as(tenant).isEqualTo(1));
        }
        ctx.assertInvariant(MultiTenantExportExample.QUEUE);
    }
}
