package io.bullpen;

/**
 * Redis refused a write because it is at its {@code maxmemory} limit with the {@code noeviction}
 * policy (Redis answered {@code OOM command not allowed when used memory > 'maxmemory'}). The
 * call wrote nothing: Redis refuses a script at its first write, so no script is half applied.
 * Reads, and the calls that only remove data, still work: a worker finishes the jobs it holds.
 *
 * <p>A {@link QueueUnavailableException}, so a handler for Redis being unreachable catches it
 * too. It lasts until memory is freed: give Redis more memory or raise {@code maxmemory}, keep
 * fewer finished jobs ({@link Retention}, {@link Queue#clean}), or drain queues nobody consumes.
 * Use {@code noeviction} for a queue's Redis: an evicting policy would delete jobs silently.
 */
public class RedisMemoryFullException extends QueueUnavailableException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception; {@code ("orders", "add", cause)} reads "queue orders: add failed:
     * Redis is out of memory (maxmemory reached) ...".
     *
     * @param queue the queue name, or null for a call on no single queue
     * @param operation the {@link Queue} method that failed, e.g. "add"
     * @param cause the client library's exception
     */
    public RedisMemoryFullException(String queue, String operation, Throwable cause) {
        super(queue, operation, "Redis is out of memory (maxmemory reached, noeviction) and refused the write; "
                + "nothing was written. Free memory: give Redis more memory or raise maxmemory, keep fewer finished "
                + "jobs (retention, clean), or drain queues nobody consumes", cause);
    }
}
