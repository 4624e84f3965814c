package io.bullpen.internal;

import com.fasterxml.jackson.core.type.TypeReference;
import io.bullpen.Repeat;
import io.bullpen.internal.ScriptTypes.SchedulerUpdate;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Does the scheduler work a fetch hands back, computing run times in Java (Lua has no cron):
 * 1. for a new pending iteration, the run after it, stored so the next take creates the
 *    following iteration atomically;
 * 2. for a scheduler awaiting repair (runs were missed, or its last worker died), the next run
 *    after now, added as its pending iteration.
 * Both calls are conditional and idempotent, so racing workers never create an iteration twice.
 * Failures are logged: any worker's next janitor pass retries the repair. Not API.
 */
public final class SchedulerAdvancer {
    private static final Logger log = LoggerFactory.getLogger(SchedulerAdvancer.class);
    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() { };

    private final SchedulerScripts scripts;
    private final Clock clock;

    /**
     * @param scripts the queue's scheduler scripts
     * @param clock the clock for "now"
     */
    public SchedulerAdvancer(SchedulerScripts scripts, Clock clock) {
        this.scripts = scripts;
        this.clock = clock;
    }

    /** Handles the updates asynchronously; never throws. */
    public void advance(List<SchedulerUpdate> updates) {
        for (SchedulerUpdate u : updates) {
            try {
                advanceOne(u);
            } catch (RuntimeException e) {
                log.warn("could not advance job scheduler {}: {}", u.schedulerId(), e.toString());
            }
        }
    }

    private void advanceOne(SchedulerUpdate u) throws RuntimeException {
        if (u.repeatJson() == null || u.repeatJson().isEmpty()) {
            return;
        }
        Repeat repeat;
        try {
            repeat = WireFormat.repeat(JsonCodec.mapper().readValue(u.repeatJson(), MAP));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            log.warn("job scheduler {} has an unreadable schedule {}", u.schedulerId(), u.repeatJson());
            return;
        }
        Instant now = clock.instant();
        if (!u.pendingJobId().isEmpty()) {
            Instant pending = Instant.ofEpochMilli(u.due());
            long following = repeat.nextRun(pending, pending).map(Instant::toEpochMilli).orElse(0L);
            if (following > 0) {
                report(u, scripts.advanceJobScheduler(now.toEpochMilli(), u.schedulerId(), u.pendingJobId(), 0, following));
            }
            return;
        }
        Instant previous = Instant.ofEpochMilli(Math.max(0, u.previousDue()));
        long due = repeat.nextRun(previous, now).map(Instant::toEpochMilli).orElse(0L);
        long following = due > 0 ? repeat.nextRun(Instant.ofEpochMilli(due), Instant.ofEpochMilli(due))
                .map(Instant::toEpochMilli).orElse(0L) : 0L;
        report(u, scripts.advanceJobScheduler(now.toEpochMilli(), u.schedulerId(), "", due, following));
    }

    private static void report(SchedulerUpdate u, java.util.concurrent.CompletionStage<Long> call) {
        call.whenComplete((r, e) -> {
            if (e != null) {
                log.warn("could not advance job scheduler {} (a later janitor pass retries): {}", u.schedulerId(), e.toString());
            }
        });
    }
}
