package io.bullpen.spring.boot.autoconfigure;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** Bullpen's settings under {@code bullpen.*}. */
@ConfigurationProperties("bullpen")
public class BullpenProperties {
    /** Prefix of every Redis key of the queues. */
    private String prefix = "bp";

    /**
     * Who owns the queue settings and @BullpenScheduler schedulers this application declares: they
     * are marked with it in Redis, and at startup what carries this mark and is no longer declared
     * is removed. Default: spring.application.name. Give each application its own.
     */
    private String configOwner;

    /**
     * Whether to remove at startup the queue settings (rate limit, global concurrency) and
     * @BullpenScheduler schedulers this application's owner declared before and no longer
     * declares. Settings written through the API or the dashboard are never removed.
     */
    private boolean removeUndeclared = true;

    private final Worker worker = new Worker();

    /** Settings per queue, by queue name. */
    private Map<String, QueueSettings> queues = new LinkedHashMap<>();

    private final Dashboard dashboard = new Dashboard();

    private final Metrics metrics = new Metrics();

    private final Tracing tracing = new Tracing();

    /** @return the key prefix */
    public String getPrefix() {
        return prefix;
    }

    /** @param prefix the key prefix */
    public void setPrefix(String prefix) {
        this.prefix = prefix;
    }

    /** @return the owner of the declared settings, null for spring.application.name */
    public String getConfigOwner() {
        return configOwner;
    }

    /** @param configOwner the owner of the declared settings */
    public void setConfigOwner(String configOwner) {
        this.configOwner = configOwner;
    }

    /** @return whether undeclared settings of this owner are removed at startup */
    public boolean isRemoveUndeclared() {
        return removeUndeclared;
    }

    /** @param removeUndeclared whether undeclared settings of this owner are removed at startup */
    public void setRemoveUndeclared(boolean removeUndeclared) {
        this.removeUndeclared = removeUndeclared;
    }

    /** @return the worker settings */
    public Worker getWorker() {
        return worker;
    }

    /** @return the settings per queue name */
    public Map<String, QueueSettings> getQueues() {
        return queues;
    }

    /** @param queues the settings per queue name */
    public void setQueues(Map<String, QueueSettings> queues) {
        this.queues = queues;
    }

    /** @return the dashboard settings */
    public Dashboard getDashboard() {
        return dashboard;
    }

    /** @return the metrics settings */
    public Metrics getMetrics() {
        return metrics;
    }

    /** @return the tracing settings */
    public Tracing getTracing() {
        return tracing;
    }

    /** {@code bullpen.worker.*}: the {@code @BullpenWorker} methods' workers. */
    public static class Worker {
        /** Whether the @BullpenWorker methods' workers run in this application. */
        private boolean enabled = true;

        /**
         * How long shutdown waits for running jobs before handing them back to their queue. Keep it
         * below spring.lifecycle.timeout-per-shutdown-phase (30s by default).
         */
        private Duration shutdownTimeout = Duration.ofSeconds(20);

        /** @return whether the workers run */
        public boolean isEnabled() {
            return enabled;
        }

        /** @param enabled whether the workers run */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        /** @return how long shutdown waits for running jobs */
        public Duration getShutdownTimeout() {
            return shutdownTimeout;
        }

        /** @param shutdownTimeout how long shutdown waits for running jobs */
        public void setShutdownTimeout(Duration shutdownTimeout) {
            this.shutdownTimeout = shutdownTimeout;
        }
    }

    /** {@code bullpen.queues.<name>.*}: one queue's settings. */
    public static class QueueSettings {
        /** Class of the jobs' data: a Queue bean of that type is defined for this queue. */
        private Class<?> dataType;

        /** How many jobs a worker of this queue runs at once (an annotation's own value wins). */
        private Integer concurrency;

        /** How long a job's lock lasts unless renewed. */
        private Duration lockDuration;

        /** How often a busy worker looks for stalled jobs. */
        private Duration stalledInterval;

        /** How many times a job may be recovered after its worker lost the lock before it fails. */
        private Integer maxStalledCount;

        /** The queue's rate limit as "max/period", e.g. "100/1s", applied at startup. */
        private String rateLimit;

        /** Most jobs of this queue running at once across all workers, applied at startup. */
        private Long globalConcurrency;

        /**
         * Most jobs per batch of this queue's batch worker (a @BullpenWorker method taking a
         * JobBatch); the annotation's own batchSize wins. Default: 10.
         */
        private Integer batchSize;

        /**
         * Fewest jobs a batch of this queue's batch worker waits for, up to batch-max-wait, between 1
         * and the batch size; the annotation's own batchMinSize wins. Default: 1.
         */
        private Integer batchMinSize;

        /**
         * How long a batch below batch-min-size waits for more jobs before it runs with what it has;
         * the annotation's own batchMaxWait wins. Default: 1s.
         */
        private Duration batchMaxWait;

        /**
         * Whether a batch of this queue's batch worker holds jobs of one group only (jobs without a
         * group form batches of their own). Default: false, jobs of any groups share a batch.
         */
        private Boolean batchSameGroup;

        /** Options for every job the queue's beans add, where the add's own options do not set them. */
        private final DefaultJobOptionsProperties defaultJobOptions = new DefaultJobOptionsProperties();

        /** @return the default job options */
        public DefaultJobOptionsProperties getDefaultJobOptions() {
            return defaultJobOptions;
        }

        /** @return the data type */
        public Class<?> getDataType() {
            return dataType;
        }

        /** @param dataType the data type */
        public void setDataType(Class<?> dataType) {
            this.dataType = dataType;
        }

        /** @return the concurrency */
        public Integer getConcurrency() {
            return concurrency;
        }

        /** @param concurrency the concurrency */
        public void setConcurrency(Integer concurrency) {
            this.concurrency = concurrency;
        }

        /** @return the lock duration */
        public Duration getLockDuration() {
            return lockDuration;
        }

        /** @param lockDuration the lock duration */
        public void setLockDuration(Duration lockDuration) {
            this.lockDuration = lockDuration;
        }

        /** @return the stalled-check interval */
        public Duration getStalledInterval() {
            return stalledInterval;
        }

        /** @param stalledInterval the stalled-check interval */
        public void setStalledInterval(Duration stalledInterval) {
            this.stalledInterval = stalledInterval;
        }

        /** @return the max stalled count */
        public Integer getMaxStalledCount() {
            return maxStalledCount;
        }

        /** @param maxStalledCount the max stalled count */
        public void setMaxStalledCount(Integer maxStalledCount) {
            this.maxStalledCount = maxStalledCount;
        }

        /** @return the rate limit text */
        public String getRateLimit() {
            return rateLimit;
        }

        /** @param rateLimit the rate limit text, "max/period" */
        public void setRateLimit(String rateLimit) {
            this.rateLimit = rateLimit;
        }

        /** @return the global concurrency */
        public Long getGlobalConcurrency() {
            return globalConcurrency;
        }

        /** @param globalConcurrency the global concurrency */
        public void setGlobalConcurrency(Long globalConcurrency) {
            this.globalConcurrency = globalConcurrency;
        }

        /** @return the most jobs per batch, null when unset */
        public Integer getBatchSize() {
            return batchSize;
        }

        /** @param batchSize the most jobs per batch */
        public void setBatchSize(Integer batchSize) {
            this.batchSize = batchSize;
        }

        /** @return the fewest jobs a batch waits for, null when unset */
        public Integer getBatchMinSize() {
            return batchMinSize;
        }

        /** @param batchMinSize the fewest jobs a batch waits for */
        public void setBatchMinSize(Integer batchMinSize) {
            this.batchMinSize = batchMinSize;
        }

        /** @return how long a batch below the minimum size waits, null when unset */
        public Duration getBatchMaxWait() {
            return batchMaxWait;
        }

        /** @param batchMaxWait how long a batch below the minimum size waits */
        public void setBatchMaxWait(Duration batchMaxWait) {
            this.batchMaxWait = batchMaxWait;
        }

        /** @return whether a batch holds jobs of one group only, null when unset */
        public Boolean getBatchSameGroup() {
            return batchSameGroup;
        }

        /** @param batchSameGroup whether a batch holds jobs of one group only */
        public void setBatchSameGroup(Boolean batchSameGroup) {
            this.batchSameGroup = batchSameGroup;
        }

        /** @return whether any batch-* property is set */
        boolean hasBatchSettings() {
            return batchSize != null || batchMinSize != null || batchMaxWait != null || batchSameGroup != null;
        }
    }

    /**
     * {@code bullpen.dashboard.*}: the web dashboard, on a port of its own, or under the
     * application's servlet web server when {@code path} is set.
     */
    public static class Dashboard {
        /** Whether to serve the dashboard. */
        private boolean enabled;

        /**
         * Path under the application's servlet web server to serve the dashboard at (e.g.
         * /bullpen), on the Actuator management server when it has a port of its own, else on the
         * main server; port and bind-address then do not apply. None: the dashboard's own port.
         */
        private String path;

        /** TCP port of the dashboard (0: any free port). */
        private int port = 8081;

        /** Address the dashboard listens on; 0.0.0.0 exposes it to the network. */
        private String bindAddress = "127.0.0.1";

        /**
         * Secret that actions must send in the X-Bullpen-Token header (none: no actions allowed);
         * under the application's server (path) reads need it too, unless a Spring Security
         * SecurityFilterChain covers the path or public-read is set.
         */
        private String token;

        /** Whether the dashboard offers no actions at all. */
        private boolean readOnly;

        /**
         * Whether the dashboard mounted under the application's server (path) lets anyone read it
         * (queues, jobs, their data and errors) without the token. By default reads need the token
         * too, unless a Spring Security SecurityFilterChain covers the path.
         */
        private boolean publicRead;

        /** @return whether the dashboard is served */
        public boolean isEnabled() {
            return enabled;
        }

        /** @param enabled whether the dashboard is served */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        /** @return the path under the servlet web server, or null for the dashboard's own port */
        public String getPath() {
            return path;
        }

        /** @param path the path under the servlet web server, e.g. /bullpen */
        public void setPath(String path) {
            this.path = path;
        }

        /** @return the port */
        public int getPort() {
            return port;
        }

        /** @param port the port */
        public void setPort(int port) {
            this.port = port;
        }

        /** @return the bind address */
        public String getBindAddress() {
            return bindAddress;
        }

        /** @param bindAddress the bind address */
        public void setBindAddress(String bindAddress) {
            this.bindAddress = bindAddress;
        }

        /** @return the token */
        public String getToken() {
            return token;
        }

        /** @param token the token */
        public void setToken(String token) {
            this.token = token;
        }

        /** @return whether the dashboard is read-only */
        public boolean isReadOnly() {
            return readOnly;
        }

        /** @param readOnly whether the dashboard is read-only */
        public void setReadOnly(boolean readOnly) {
            this.readOnly = readOnly;
        }

        /** @return whether the mounted dashboard is readable without the token */
        public boolean isPublicRead() {
            return publicRead;
        }

        /** @param publicRead whether the mounted dashboard is readable without the token */
        public void setPublicRead(boolean publicRead) {
            this.publicRead = publicRead;
        }
    }

    /** {@code bullpen.metrics.*}: Micrometer meters (bullpen-micrometer on the class path). */
    public static class Metrics {
        /** Whether Bullpen's meters are registered when bullpen-micrometer is present. */
        private boolean enabled = true;

        /** @return whether meters are registered */
        public boolean isEnabled() {
            return enabled;
        }

        /** @param enabled whether meters are registered */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        /** Whether the job timers and counters carry the job's name as a "name" tag. */
        private boolean jobNameTag;

        /** @return whether the job's name is a tag */
        public boolean isJobNameTag() {
            return jobNameTag;
        }

        /** @param jobNameTag whether the job's name is a tag */
        public void setJobNameTag(boolean jobNameTag) {
            this.jobNameTag = jobNameTag;
        }
    }

    /** {@code bullpen.tracing.*}: observations (bullpen-tracing on the class path). */
    public static class Tracing {
        /** Whether jobs are traced when bullpen-tracing is present. */
        private boolean enabled = true;
        /**
         * How an attempt's span relates to the span that added its job: PRODUCER (its child, one trace)
         * or LINK (a trace of its own, for a handler that links to the producer).
         */
        private ProcessParent processParent = ProcessParent.PRODUCER;

        /** @return whether jobs are traced */
        public boolean isEnabled() {
            return enabled;
        }

        /** @param enabled whether jobs are traced */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        /** @return how an attempt's span relates to the span that added its job */
        public ProcessParent getProcessParent() {
            return processParent;
        }

        /** @param processParent how an attempt's span relates to the span that added its job */
        public void setProcessParent(ProcessParent processParent) {
            this.processParent = processParent;
        }

        /** How an attempt's {@code process} span relates to the {@code send} span of its job's add. */
        public enum ProcessParent {
            /** A child of it: one trace from the add to every attempt. */
            PRODUCER,
            /** A trace of its own, for a handler that links to the producer. */
            LINK
        }
    }
}
