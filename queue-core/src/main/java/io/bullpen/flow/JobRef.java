package io.bullpen.flow;

import java.util.Objects;

/**
 * A reference to one job: its queue and id (e.g. a child's parent, {@link io.bullpen.Job#parents()}).
 *
 * @param queue the queue name
 * @param id the job id
 */
public record JobRef(String queue, String id) {
    /**
     * @param queue the queue name
     * @param id the job id
     * @throws NullPointerException when either is null
     */
    public JobRef {
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(id, "id");
    }

    @Override
    public String toString() {
        return queue + ":" + id;
    }
}
