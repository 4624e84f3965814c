package io.bullpen;

/**
 * An add would put more waiting jobs in a group than its max size
 * ({@link Queue#setGroupMaxSize(String, long)}); nothing of the add (or of the whole bulk add)
 * was written.
 */
public class GroupFullException extends BullpenException {
    private static final long serialVersionUID = 1L;

    private final String queue;
    private final String group;
    private final long maxSize;

    /**
     * @param queue the queue name
     * @param group the full group
     * @param maxSize its max size
     */
    public GroupFullException(String queue, String group, long maxSize) {
        super("group " + group + " of queue " + queue + " is full: it holds its max size of " + maxSize + " waiting jobs");
        this.queue = queue;
        this.group = group;
        this.maxSize = maxSize;
    }

    /** @return the queue name */
    public String queue() {
        return queue;
    }

    /** @return the full group */
    public String group() {
        return group;
    }

    /** @return the group's max size */
    public long maxSize() {
        return maxSize;
    }
}
