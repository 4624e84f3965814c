package io.bullpen.internal;

import static io.bullpen.internal.ScriptFixture.LOCK_MS;
import static io.bullpen.internal.ScriptFixture.NOW;
import static io.bullpen.internal.ScriptFixture.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bullpen.QueueBusyException;
import io.bullpen.internal.AdminScripts.ObliterateChunk;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.QueueSnapshot;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.client.codec.StringCodec;

/** obliterate: refuses with active jobs unless forced; deletes every key of the queue, in chunks. */
@BullpenTest
class ObliterateScriptTest {
    private ScriptFixture f;
    private AdminScripts admin;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        f = new ScriptFixture(ctx);
        admin = new AdminScripts(ctx.redisson(), f.k);
    }

    /** A job in every state, logs, two schedulers, metrics, counters, events, marker, paused meta. */
    private void seedEverything() {
        f.job("w").waiting("w").job("p").zadd(f.k.prioritized(), "p", 1).job("d").delayed("d", NOW + 1000)
                .job("a").active("a", "w:1", LOCK_MS, NOW + LOCK_MS).job("c").zadd(f.k.completed(), "c", NOW)
                .job("f").zadd(f.k.failed(), "f", NOW).zadd(f.k.marker(), "0", 0).meta("paused", "1")
                .meta("mm:completed", "28333333").meta("mc:completed", "4");
        f.redisson.getList(f.k.logs("c"), StringCodec.INSTANCE).add("line");
        f.zadd(f.k.schedulers(), "hourly", NOW + 3_600_000).zadd(f.k.schedulers(), "daily", NOW + 86_400_000);
        f.redisson.<String, String>getMap(f.k.scheduler("hourly"), StringCodec.INSTANCE).put("name", "h");
        f.redisson.<String, String>getMap(f.k.scheduler("daily"), StringCodec.INSTANCE).put("name", "d");
        f.redisson.getList(f.k.metrics("completed"), StringCodec.INSTANCE).add("3");
        f.redisson.getList(f.k.metrics("failed"), StringCodec.INSTANCE).add("1");
        f.redisson.getBucket(f.k.id(), StringCodec.INSTANCE).set("6");
        f.redisson.getBucket(f.k.fence(), StringCodec.INSTANCE).set("9");
        f.redisson.getStream(f.k.events(), StringCodec.INSTANCE).add(
                org.redisson.api.stream.StreamAddArgs.entries(Map.of("event", "added", "jobId", "w")));
    }

    @Test
    void refusesWhileJobsAreActiveAndChangesNothing() {
        seedEverything();
        QueueSnapshot before = f.snap();

        assertThatThrownBy(() -> join(admin.obliterate(false, 100)))
                .isInstanceOfSatisfying(QueueBusyException.class, e -> assertThat(e.activeJobs()).isEqualTo(1))
                .hasMessageContaining("1 job is active").hasMessageContaining(f.k.queue());

        QueueSnapshot after = f.snap();
        assertThat(after.keys()).isEqualTo(before.keys());
        assertThat(after.meta()).isEqualTo(before.meta());
        assertThat(after.active()).containsExactly("a");
        assertThat(after.leases()).isEqualTo(before.leases());
        assertThat(after.lock("a")).isEqualTo("w:1");
        assertThat(after.events()).isEqualTo(before.events());
    }

    @Test
    void forcedDeletesEveryKeyOfTheQueueInOneCallWhenSmall() {
        seedEverything();
        String otherQueue = new KeyScheme("bp", f.k.queue() + "-other").job("1");
        f.redisson.getBucket(otherQueue, StringCodec.INSTANCE).set("x");

        assertThat(join(admin.obliterate(true, 100))).isEqualTo(new ObliterateChunk(6, true));

        assertThat(f.snap().keys()).isEmpty();
        assertThat(f.redisson.getBucket(otherQueue, StringCodec.INSTANCE).isExists()).isTrue();
    }

    @Test
    void withoutActiveJobsItNeedsNoForce() {
        f.job("w").waiting("w").job("c").zadd(f.k.completed(), "c", NOW).meta("paused", "1");

        assertThat(join(admin.obliterate(false, 100))).isEqualTo(new ObliterateChunk(2, true));

        assertThat(f.snap().keys()).isEmpty();
    }

    @Test
    void worksInChunksAndDeletesTheQueuesOwnKeysLast() {
        seedEverything();

        assertThat(join(admin.obliterate(true, 4))).isEqualTo(new ObliterateChunk(4, false));
        QueueSnapshot mid = f.snap();
        assertThat(mid.jobIds()).containsExactlyInAnyOrder("c", "f");
        // The active job went first, with its lease and lock.
        assertThat(mid.leases()).isEmpty();
        assertThat(mid.lock("a")).isNull();
        assertThat(mid.meta()).containsEntry("paused", "1");
        assertThat(mid.exists("events")).isTrue();
        f.assertInvariant();

        assertThat(join(admin.obliterate(true, 2))).isEqualTo(new ObliterateChunk(2, false));
        assertThat(f.snap().exists("job:c:logs")).isFalse();
        // No jobs left: this call deletes up to 2 schedulers, which is the limit: not done yet.
        assertThat(join(admin.obliterate(true, 2))).isEqualTo(new ObliterateChunk(0, false));
        assertThat(f.snap().keys()).doesNotContain("scheduler:hourly", "scheduler:daily").contains("meta", "id", "fence");
        assertThat(join(admin.obliterate(true, 2))).isEqualTo(new ObliterateChunk(0, true));

        assertThat(f.snap().keys()).isEmpty();
    }

    @Test
    void anEmptyQueueIsDoneAtOnce() {
        assertThat(join(admin.obliterate(false, 100))).isEqualTo(new ObliterateChunk(0, true));
        assertThat(f.snap().keys()).isEmpty();
    }
}
