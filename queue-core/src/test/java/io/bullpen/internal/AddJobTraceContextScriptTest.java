package io.bullpen.internal;

import static io.bullpen.internal.ScriptFixture.NOW;
import static io.bullpen.internal.ScriptFixture.fetch;
import static io.bullpen.internal.ScriptFixture.join;
import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.internal.ScriptTypes.AddResult;
import io.bullpen.internal.ScriptTypes.NewJob;
import io.bullpen.internal.ScriptTypes.RawJob;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** addJob's optional last argument: trace headers stored as {@code tc} on every job the call adds. */
@BullpenTest
class AddJobTraceContextScriptTest {
    private static final String TC = "{\"traceparent\":\"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01\"}";
    private ScriptFixture f;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        f = new ScriptFixture(ctx);
    }

    private static NewJob plain(String name) {
        return new NewJob(null, name, "{}", "", 0, 0, false);
    }

    @Test
    void theHeadersAreStoredOnEveryJobTheCallAddsAndOnNoDuplicate() {
        join(f.scripts.addJob(NOW, List.of(new NewJob("order-1", "first", "{}", "", 0, 0, false))));
        List<NewJob> jobs = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            jobs.add(plain("j" + i));
        }
        jobs.add(new NewJob("order-1", "again", "{}", "", 0, 0, false));
        jobs.add(new NewJob(null, "later", "{}", "", 500, 0, false));

        List<AddResult> results = join(f.scripts.addJob(NOW, jobs, TC));

        assertThat(results).hasSize(12);
        for (AddResult r : results) {
            Map<String, String> hash = f.snap().job(r.id());
            if (r.id().equals("order-1")) {
                assertThat(r.added()).isFalse();
                assertThat(hash).doesNotContainKey(JobFields.TRACE_CONTEXT);
            } else {
                assertThat(hash).containsEntry(JobFields.TRACE_CONTEXT, TC);
            }
        }
        f.assertInvariant();
    }

    @Test
    void aCallWithoutThemStoresNothingAndTheTakeHandsThemToTheWorker() {
        join(f.scripts.addJob(NOW, List.of(plain("traced")), TC));
        join(f.scripts.addJob(NOW, List.of(plain("plain")), null));

        assertThat(f.snap().job("2")).doesNotContainKey(JobFields.TRACE_CONTEXT);
        List<RawJob> taken = join(f.scripts.moveToActive(NOW, fetch(2))).jobs();
        assertThat(taken).extracting(RawJob::id).containsExactly("1", "2");
        assertThat(taken.get(0).hash()).containsEntry(JobFields.TRACE_CONTEXT, TC);
        assertThat(taken.get(1).hash()).doesNotContainKey(JobFields.TRACE_CONTEXT);
    }

    @Test
    void theStoredHeadersDecodeBackToTheMapAndABadFieldToNone() {
        assertThat(TraceHeaders.decode(TraceHeaders.encode(Map.of("traceparent", "00-a-b-01", "tracestate", "k=v"))))
                .containsOnly(Map.entry("traceparent", "00-a-b-01"), Map.entry("tracestate", "k=v"));
        assertThat(TraceHeaders.encode(Map.of("traceparent", "00-a-b-01"))).as("a lone traceparent, compact")
                .isEqualTo("00-a-b-01");
        assertThat(TraceHeaders.decode("00-a-b-01")).containsOnly(Map.entry("traceparent", "00-a-b-01"));
        assertThat(TraceHeaders.encode(Map.of())).isNull();
        assertThat(TraceHeaders.decode(null)).isEmpty();
        assertThat(TraceHeaders.decode("{not json")).isEmpty();
    }
}
