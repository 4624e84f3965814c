package io.bullpen.spring.boot.autoconfigure;

import io.bullpen.DeclaredSettings;
import io.bullpen.JobTemplate;
import io.bullpen.Queue;
import io.bullpen.RateLimit;
import io.bullpen.client.Bullpen;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the application's configuration declares in Redis, and who owns it: the queue settings of
 * {@code bullpen.queues.*} (rate limit, global concurrency) and the {@code @BullpenScheduler}
 * schedulers, written marked with the owner ({@code bullpen.config-owner}, else
 * {@code spring.application.name}; see {@link DeclaredSettings}). At startup, with
 * {@code bullpen.remove-undeclared}, whatever carries this owner's mark and is no longer declared
 * is removed, on every queue of the registry, with one INFO line each; what another owner
 * declared, or what the API or the dashboard wrote (unmarked), is never touched. Without an owner
 * nothing is marked and nothing removed.
 */
final class DeclaredConfiguration {
    private static final Logger log = LoggerFactory.getLogger(DeclaredConfiguration.class);

    private final Bullpen bullpen;
    private final BullpenProperties properties;
    private final String owner;
    private final Map<String, Set<String>> schedulers;

    /**
     * @param owner the owner, null when neither {@code bullpen.config-owner} nor
     *     {@code spring.application.name} is set
     * @param methods the worker methods, whose schedulers are declared (also when the workers do
     *     not run here: another instance of the application runs them)
     */
    DeclaredConfiguration(Bullpen bullpen, BullpenProperties properties, String owner, List<WorkerMethod> methods) {
        this.bullpen = bullpen;
        this.properties = properties;
        this.owner = owner;
        this.schedulers = new LinkedHashMap<>();
        for (WorkerMethod m : methods) {
            if (m.scheduler() != null) {
                schedulers.computeIfAbsent(m.queue(), q -> new LinkedHashSet<>()).add(m.scheduler().id());
            }
        }
    }

    /**
     * @return the owner from {@code bullpen.config-owner}, else {@code spring.application.name};
     *     null when neither is set (or blank)
     */
    static String owner(String configOwner, String applicationName) {
        if (configOwner != null && !configOwner.isBlank()) {
            return configOwner.trim();
        }
        return applicationName == null || applicationName.isBlank() ? null : applicationName.trim();
    }

    /** @return the owner, null for none */
    String owner() {
        return owner;
    }

    /** Writes the queue settings of {@code bullpen.queues.*}, marked with the owner when there is one. */
    void applyQueueSettings() {
        properties.getQueues().forEach((name, s) -> {
            if (s.getRateLimit() == null && s.getGlobalConcurrency() == null) {
                return;
            }
            Queue<Object> queue = settingsHandle(name);
            if (s.getRateLimit() != null) {
                RateLimit limit = QueueSettingsApplier.rateLimit(name, s.getRateLimit());
                if (owner == null) {
                    queue.setRateLimit(limit);
                } else {
                    queue.declaredBy(owner).setRateLimit(limit);
                }
            }
            if (s.getGlobalConcurrency() != null) {
                if (owner == null) {
                    queue.setGlobalConcurrency(s.getGlobalConcurrency());
                } else {
                    queue.declaredBy(owner).setGlobalConcurrency(s.getGlobalConcurrency());
                }
            }
        });
    }

    /**
     * Upserts a declared scheduler, marked with the owner when there is one.
     *
     * @return whether its definition changed
     */
    <T> boolean upsertScheduler(Queue<T> queue, WorkerMethod.Schedule s, T data) {
        JobTemplate<T> template = JobTemplate.of(s.jobName(), data);
        return owner == null ? queue.upsertJobScheduler(s.id(), s.repeat(), template)
                : queue.declaredBy(owner).upsertJobScheduler(s.id(), s.repeat(), template);
    }

    /**
     * Removes, on every queue of the registry, what carries this owner's mark and the
     * configuration no longer declares; logs one INFO line each. Nothing without an owner or with
     * {@code bullpen.remove-undeclared=false}.
     */
    void removeUndeclared() {
        if (!properties.isRemoveUndeclared()) {
            return;
        }
        if (owner == null) {
            log.info("neither bullpen.config-owner nor spring.application.name is set: the queue settings and "
                    + "@BullpenScheduler schedulers of this application are not marked with an owner, and those it "
                    + "no longer declares stay in Redis");
            return;
        }
        for (String name : Queue.listQueues(bullpen.redisson(), bullpen.prefix())) {
            removeUndeclared(name);
        }
    }

    private void removeUndeclared(String name) {
        BullpenProperties.QueueSettings declared = properties.getQueues().get(name);
        Queue<Object> queue = settingsHandle(name);
        DeclaredSettings<Object> mine = queue.declaredBy(owner);
        if ((declared == null || declared.getRateLimit() == null) && mine.ownsRateLimit()) {
            Optional<RateLimit> limit = queue.getRateLimit();
            if (mine.removeRateLimit()) {
                log.info("removed the rate limit {} of queue {}: declared by {} (bullpen.queues.{}.rate-limit), "
                        + "which no longer declares it", limit.map(DeclaredConfiguration::text).orElse(""), name, owner, name);
            }
        }
        if ((declared == null || declared.getGlobalConcurrency() == null) && mine.ownsGlobalConcurrency()) {
            OptionalLong concurrency = queue.getGlobalConcurrency();
            if (mine.removeGlobalConcurrency()) {
                log.info("removed the global concurrency {} of queue {}: declared by {} "
                        + "(bullpen.queues.{}.global-concurrency), which no longer declares it",
                        concurrency.isPresent() ? concurrency.getAsLong() : "", name, owner, name);
            }
        }
        Set<String> declaredSchedulers = schedulers.getOrDefault(name, Set.of());
        for (String id : mine.getJobSchedulerIds()) {
            if (!declaredSchedulers.contains(id) && mine.removeJobScheduler(id)) {
                log.info("removed the job scheduler {} of queue {}: declared by {} (@BullpenScheduler), "
                        + "which no longer declares it", id, name, owner);
            }
        }
    }

    /** "2/1s" (as the property writes it), with the burst when there is one. */
    static String text(RateLimit limit) {
        long ms = limit.per().toMillis();
        String per = ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
        return limit.max() + "/" + per + (limit.burst() > 0 ? " (burst " + limit.burst() + ")" : "");
    }

    /** An untyped handle for the settings only: the typed one stays free for the application. */
    private Queue<Object> settingsHandle(String name) {
        return Queue.builder(bullpen.redisson(), name, Object.class).prefix(bullpen.prefix()).build();
    }
}
