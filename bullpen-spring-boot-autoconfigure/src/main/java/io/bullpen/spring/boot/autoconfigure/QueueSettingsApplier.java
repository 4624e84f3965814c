package io.bullpen.spring.boot.autoconfigure;

import io.bullpen.RateLimit;
import java.time.Duration;
import org.springframework.boot.convert.DurationStyle;

/** Reads the queue-level settings of {@code bullpen.queues.*} (the rate limit's text); {@link DeclaredConfiguration} writes them. */
final class QueueSettingsApplier {
    private QueueSettingsApplier() {
    }

    /** "100/1s" -> 100 per second. */
    static RateLimit rateLimit(String queue, String text) {
        String property = "bullpen.queues." + queue + ".rate-limit";
        int slash = text.indexOf('/');
        if (slash <= 0 || slash == text.length() - 1) {
            throw new IllegalArgumentException(property + " must be \"max/period\" such as \"100/1s\" but was \"" + text + "\"");
        }
        try {
            long max = Long.parseLong(text.substring(0, slash).trim());
            Duration per = DurationStyle.detectAndParse(text.substring(slash + 1).trim());
            return RateLimit.of(max, per);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(property + " must be \"max/period\" such as \"100/1s\" but was \""
                    + text + "\": " + e.getMessage(), e);
        }
    }
}
