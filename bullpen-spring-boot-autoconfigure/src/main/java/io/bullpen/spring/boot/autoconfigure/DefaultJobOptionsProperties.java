package io.bullpen.spring.boot.autoconfigure;

import io.bullpen.Backoff;
import io.bullpen.JobOptions;
import io.bullpen.Retention;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code bullpen.queues.<name>.default-job-options.*}: options filled in for every job the queue's
 * beans add where the add's own options do not set them ({@code Queue.Builder.defaultJobOptions}).
 * Unset properties set nothing.
 */
public class DefaultJobOptionsProperties {
    /** How many times a job may run in total, the first attempt included. */
    private Integer attempts;

    /** How long after being added a job becomes ready. */
    private Duration delay;

    /** Priority: 1 (runs first) to 2097152; unset for none. */
    private Integer priority;

    /** Whether jobs go to the front of the wait list (cannot be combined with a priority). */
    private Boolean lifo;

    /** How long one attempt may run before it is interrupted and fails. */
    private Duration timeout;

    private final BackoffProperties backoff = new BackoffProperties();

    private final RetentionProperties removeOnComplete = new RetentionProperties();

    private final RetentionProperties removeOnFail = new RetentionProperties();

    /**
     * @param property the properties' prefix, for messages
     * @return the options, or null when no property is set
     * @throws IllegalArgumentException naming the property, for a bad value
     */
    JobOptions toJobOptions(String property) {
        JobOptions.Builder b = JobOptions.builder();
        boolean any = false;
        try {
            if (attempts != null) {
                b.attempts(attempts);
                any = true;
            }
            if (delay != null) {
                b.delay(delay);
                any = true;
            }
            if (priority != null) {
                b.priority(priority);
                any = true;
            }
            if (lifo != null) {
                b.lifo(lifo);
                any = true;
            }
            if (timeout != null) {
                b.timeout(timeout);
                any = true;
            }
            if (backoff.isSet()) {
                b.backoff(backoff.toBackoff());
                any = true;
            }
            if (removeOnComplete.isSet()) {
                b.removeOnComplete(removeOnComplete.toRetention());
                any = true;
            }
            if (removeOnFail.isSet()) {
                b.removeOnFail(removeOnFail.toRetention());
                any = true;
            }
            return any ? b.build() : null;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(property + ": " + e.getMessage(), e);
        }
    }

    /** @return the attempts */
    public Integer getAttempts() {
        return attempts;
    }

    /** @param attempts the attempts, >= 1 */
    public void setAttempts(Integer attempts) {
        this.attempts = attempts;
    }

    /** @return the delay */
    public Duration getDelay() {
        return delay;
    }

    /** @param delay the delay, >= 0 */
    public void setDelay(Duration delay) {
        this.delay = delay;
    }

    /** @return the priority */
    public Integer getPriority() {
        return priority;
    }

    /** @param priority the priority */
    public void setPriority(Integer priority) {
        this.priority = priority;
    }

    /** @return whether jobs are LIFO */
    public Boolean getLifo() {
        return lifo;
    }

    /** @param lifo whether jobs are LIFO */
    public void setLifo(Boolean lifo) {
        this.lifo = lifo;
    }

    /** @return the timeout of an attempt */
    public Duration getTimeout() {
        return timeout;
    }

    /** @param timeout the timeout of an attempt, >= 1ms */
    public void setTimeout(Duration timeout) {
        this.timeout = timeout;
    }

    /** @return the backoff between attempts */
    public BackoffProperties getBackoff() {
        return backoff;
    }

    /** @return which completed jobs to keep */
    public RetentionProperties getRemoveOnComplete() {
        return removeOnComplete;
    }

    /** @return which failed jobs to keep */
    public RetentionProperties getRemoveOnFail() {
        return removeOnFail;
    }

    /** {@code backoff.*}: the wait before each retry. */
    public static class BackoffProperties {
        /** fixed (the same delay each time), exponential (delay, 2 x delay, ...) or schedule (the delays listed). */
        private String type = "fixed";

        /** The delay (fixed) or first delay (exponential). */
        private Duration delay;

        /** Cap of an exponential backoff's delay. */
        private Duration maxDelay;

        /** Fraction (0 to 1) by which an exponential backoff's delays are randomly shortened. */
        private Double jitter;

        /** The delays of a schedule backoff, the last repeating, e.g. 15s,3m,10m. */
        private List<Duration> delays = new ArrayList<>();

        boolean isSet() {
            return delay != null || !delays.isEmpty();
        }

        Backoff toBackoff() {
            String kind = type == null ? "fixed" : type.trim().toLowerCase(Locale.ROOT);
            switch (kind) {
                case "fixed" -> {
                    return Backoff.fixed(required());
                }
                case "exponential" -> {
                    var exponential = Backoff.exponential(required());
                    if (maxDelay != null) {
                        exponential = exponential.maxDelay(maxDelay);
                    }
                    return jitter == null ? exponential : exponential.jitter(jitter);
                }
                case "schedule" -> {
                    if (delays.isEmpty()) {
                        throw new IllegalArgumentException("backoff.delays must list the delays of a schedule backoff");
                    }
                    return Backoff.schedule(delays);
                }
                default -> throw new IllegalArgumentException("backoff.type must be fixed, exponential or schedule but was \""
                        + type + "\"");
            }
        }

        private Duration required() {
            if (delay == null) {
                throw new IllegalArgumentException("backoff.delay must be set for a " + type + " backoff");
            }
            return delay;
        }

        /** @return the type */
        public String getType() {
            return type;
        }

        /** @param type fixed, exponential or schedule */
        public void setType(String type) {
            this.type = type;
        }

        /** @return the delay */
        public Duration getDelay() {
            return delay;
        }

        /** @param delay the delay */
        public void setDelay(Duration delay) {
            this.delay = delay;
        }

        /** @return the cap */
        public Duration getMaxDelay() {
            return maxDelay;
        }

        /** @param maxDelay the cap of an exponential backoff */
        public void setMaxDelay(Duration maxDelay) {
            this.maxDelay = maxDelay;
        }

        /** @return the jitter */
        public Double getJitter() {
            return jitter;
        }

        /** @param jitter the jitter of an exponential backoff, 0 to 1 */
        public void setJitter(Double jitter) {
            this.jitter = jitter;
        }

        /** @return the schedule's delays */
        public List<Duration> getDelays() {
            return delays;
        }

        /** @param delays the schedule's delays */
        public void setDelays(List<Duration> delays) {
            this.delays = delays;
        }
    }

    /** {@code remove-on-complete.*} / {@code remove-on-fail.*}: which finished jobs to keep (unset: all). */
    public static class RetentionProperties {
        /** Keep at most this many finished jobs (0: none). */
        private Integer count;

        /** Keep finished jobs at most this long. */
        private Duration age;

        boolean isSet() {
            return count != null || age != null;
        }

        Retention toRetention() {
            if (count != null && age != null) {
                return Retention.keep(count, age);
            }
            return count != null ? Retention.keepLast(count) : Retention.keepFor(age);
        }

        /** @return the count */
        public Integer getCount() {
            return count;
        }

        /** @param count how many finished jobs to keep */
        public void setCount(Integer count) {
            this.count = count;
        }

        /** @return the age */
        public Duration getAge() {
            return age;
        }

        /** @param age how long to keep finished jobs */
        public void setAge(Duration age) {
            this.age = age;
        }
    }
}
