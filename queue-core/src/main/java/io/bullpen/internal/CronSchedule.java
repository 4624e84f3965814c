package io.bullpen.internal;

import com.cronutils.model.Cron;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.time.Instant;
import java.time.ZoneId;
import java.time.zone.ZoneOffsetTransition;
import java.time.ZonedDateTime;
import java.util.Optional;

/**
 * A parsed cron expression in a time zone, behind a small interface so the cron library can be
 * swapped. Five fields are Unix cron (minute hour day-of-month month day-of-week); six fields
 * put seconds first (Spring's format). Across daylight-saving changes: a time that does not
 * exist in the spring-forward gap fires at the end of the gap, and a time repeated in the
 * fall-back hour fires once. Not API.
 */
public final class CronSchedule {
    private static final CronParser UNIX = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));
    private static final CronParser WITH_SECONDS = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.SPRING));

    private final String expression;
    private final ZoneId zone;
    private final ExecutionTime executionTime;

    private CronSchedule(String expression, ZoneId zone, ExecutionTime executionTime) {
        this.expression = expression;
        this.zone = zone;
        this.executionTime = executionTime;
    }

    /**
     * @throws IllegalArgumentException naming the expression when it is not valid cron
     */
    public static CronSchedule parse(String expression, ZoneId zone) {
        if (expression == null || expression.isBlank()) {
            throw new IllegalArgumentException("cron expression must not be blank but was " + Validation.quote(expression));
        }
        String trimmed = expression.trim();
        int fields = trimmed.split("\\s+").length;
        if (fields != 5 && fields != 6) {
            throw new IllegalArgumentException("cron expression \"" + trimmed + "\" has " + fields
                    + " fields; expected 5 (minute hour day month weekday) or 6 (with seconds first)");
        }
        try {
            Cron cron = (fields == 5 ? UNIX : WITH_SECONDS).parse(trimmed);
            cron.validate();
            return new CronSchedule(trimmed, zone, ExecutionTime.forCron(cron));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid cron expression \"" + trimmed + "\": " + e.getMessage(), e);
        }
    }

    /**
     * The first fire time strictly after {@code after}. A fire time that falls in a
     * daylight-saving gap (a local time that does not exist, e.g. 02:30 on a spring-forward
     * night) fires at the end of the gap, as Vixie cron does; cron-utils alone would skip that
     * day's run. A time repeated in the fall-back hour fires once.
     *
     * @param after the instant to start from
     * @return the next fire time, if there is one
     */
    public Optional<Instant> next(Instant after) {
        Optional<Instant> next = executionTime.nextExecution(ZonedDateTime.ofInstant(after, zone)).map(ZonedDateTime::toInstant);
        ZoneOffsetTransition t = zone.getRules().nextTransition(after);
        for (int i = 0; t != null && i < 4 && (next.isEmpty() || t.getInstant().isBefore(next.get())); i++) {
            if (t.isGap() && firesInGap(t)) {
                return Optional.of(t.getInstant());
            }
            t = zone.getRules().nextTransition(t.getInstant());
        }
        return next;
    }

    /** Whether the expression matches a local time that the gap skips. */
    private boolean firesInGap(ZoneOffsetTransition gap) {
        // Read the clock as if the transition had not happened (fixed offset before it).
        ZonedDateTime justBefore = gap.getDateTimeBefore().minusNanos(1).atZone(gap.getOffsetBefore());
        return executionTime.nextExecution(justBefore)
                .map(c -> c.toLocalDateTime().isBefore(gap.getDateTimeAfter()))
                .orElse(false);
    }

    /** @return the expression as given (trimmed) */
    public String expression() {
        return expression;
    }

    /** @return the zone fire times are computed in */
    public ZoneId zone() {
        return zone;
    }
}
