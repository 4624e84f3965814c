package io.bullpen.flow;

import io.bullpen.JobOptions;
import io.bullpen.internal.Validation;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One job of a flow: its queue, name, data and options, and its children, each with the
 * {@link ChildFailure} policy of its edge. Immutable; build with {@link #builder(String, String, Object)}.
 *
 * <p>The same {@code FlowJob} object used as the child of two parents is one job both wait for
 * (a DAG): it runs once. Across adds, jobs with the same custom id ({@link Builder#jobId(String)})
 * are the same job: an existing job is kept and not added again.
 *
 * <pre>{@code
 * FlowJob report = FlowJob.builder("reports", "assemble", new Report(7))
 *         .child(FlowJob.builder("pages", "render", new Page(1)).build())
 *         .child(FlowJob.builder("pages", "render", new Page(2)).build(), ChildFailure.IGNORE)
 *         .build();
 * }</pre>
 */
public final class FlowJob {
    private final String queue;
    private final String name;
    private final Object data;
    private final JobOptions options;
    private final String jobId;
    private final List<Edge> children;

    /**
     * One edge from a parent to a child.
     *
     * @param child the child job
     * @param policy what the parent does when the child fails for good
     */
    public record Edge(FlowJob child, ChildFailure policy) {
        /**
         * @param child the child job
         * @param policy the edge's policy
         */
        public Edge {
            Objects.requireNonNull(child, "child");
            Objects.requireNonNull(policy, "policy");
        }
    }

    private FlowJob(Builder b) {
        this.queue = b.queue;
        this.name = b.name;
        this.data = b.data;
        this.options = b.options;
        this.jobId = b.jobId;
        this.children = List.copyOf(b.children);
    }

    /**
     * Starts a flow job.
     *
     * @param queue the queue the job goes to
     * @param name the job name
     * @param data the job's data (JSON with Jackson; null for none)
     * @return a builder
     * @throws IllegalArgumentException for an illegal queue name
     * @throws NullPointerException for a null queue or name
     */
    public static Builder builder(String queue, String name, Object data) {
        return new Builder(queue, name, data);
    }

    /** @return the queue the job goes to */
    public String queue() {
        return queue;
    }

    /** @return the job name */
    public String name() {
        return name;
    }

    /** @return the job's data */
    public Object data() {
        return data;
    }

    /** @return the job's options (the queue's default job options fill in what they do not set) */
    public JobOptions options() {
        return options;
    }

    /** @return the custom job id: {@link Builder#jobId(String)}, else the options' job id; null for a generated one */
    public String jobId() {
        return jobId != null ? jobId : options.jobId().orElse(null);
    }

    /** @return the job's children with their edge policies, in the order they were added */
    public List<Edge> children() {
        return children;
    }

    @Override
    public String toString() {
        return "FlowJob{" + queue + ":" + (jobId() != null ? jobId() : "?") + " " + name + "}";
    }

    /** Builds a {@link FlowJob}. */
    public static final class Builder {
        private final String queue;
        private final String name;
        private final Object data;
        private JobOptions options = JobOptions.defaults();
        private String jobId;
        private final List<Edge> children = new ArrayList<>();

        private Builder(String queue, String name, Object data) {
            this.queue = Validation.queueName(queue);
            this.name = Objects.requireNonNull(name, "name");
            this.data = data;
        }

        /**
         * @param options the job's options (delay, priority, attempts, retention...); a parent's
         *     delay counts from when its children are done
         * @return this builder
         */
        public Builder options(JobOptions options) {
            this.options = Objects.requireNonNull(options, "options");
            return this;
        }

        /**
         * @param jobId a custom job id (rules of {@link JobOptions.Builder#jobId(String)}); a job
         *     with this id that exists already is kept and not added again
         * @return this builder
         * @throws IllegalArgumentException for an illegal id
         */
        public Builder jobId(String jobId) {
            this.jobId = Validation.jobId(jobId);
            return this;
        }

        /**
         * Adds a child with the default policy, {@link ChildFailure#FAIL_PARENT}.
         *
         * @param child the child
         * @return this builder
         */
        public Builder child(FlowJob child) {
            return child(child, ChildFailure.FAIL_PARENT);
        }

        /**
         * Adds a child.
         *
         * @param child the child
         * @param policy what this job does when the child fails for good
         * @return this builder
         */
        public Builder child(FlowJob child, ChildFailure policy) {
            children.add(new Edge(child, policy));
            return this;
        }

        /** @return the flow job */
        public FlowJob build() {
            return new FlowJob(this);
        }
    }
}
