package io.bullpen.flow;

import java.util.List;
import java.util.Objects;

/**
 * One job of a flow as it was added (or found: a job whose custom id existed is kept), with its
 * children. A child shared by two parents (a DAG) appears under both.
 *
 * @param queue the job's queue
 * @param id the job's id
 * @param children the job's children, in the order they were declared
 */
public record JobNode(String queue, String id, List<JobNode> children) {
    /**
     * @param queue the job's queue
     * @param id the job's id
     * @param children the job's children
     */
    public JobNode {
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(id, "id");
        children = List.copyOf(children);
    }

    /** @return the job as a reference (queue and id) */
    public JobRef ref() {
        return new JobRef(queue, id);
    }
}
