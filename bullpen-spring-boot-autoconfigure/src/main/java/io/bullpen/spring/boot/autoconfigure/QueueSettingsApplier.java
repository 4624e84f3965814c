package io.bullpen.spring.boot.autoconfigure;

import io.bullpen.Queue;
import io.bullpen.RateLimit;
import io.bullpen.client.Bullpen;
import java.time.Duration;
import org.springframework.boot.convert.DurationStyle;

/** Applies the queue-level settings of {@code bullpen.queues.*} (rate limit, global concurrency) at startup. */
final class QueueSettingsApplier {
    private QueueSettingsApplier() {
    }

    static void apply(Bullpen bullpen, BullpenProperties properties) {
        properties.getQueues().forEach((name, s) -> {
            if (s.getRateLimit() == null && s.getGlobalConcurrency() == null) {
                return;
            }
            // An untyped handle for the settings only: the typed one stays free for the application.
            Queue<Object> queue = Queue.builder(bullpen.redisson(), name, Object.class).prefix(bullpen.prefix()).build();
            if (s.getRateLimit() != null) {
                queue.setRateLimit(rateLimit(name, s.getRateLimit()));
            }
            if (s.getGlobalConcurrency() != null) {
                queue.setGlobalConcurrency(s.getGlobalConcurrency());
            }
        });
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
