package io.bullpen.spring;

import com.fasterxml.jackson.core.type.TypeReference;
import io.bullpen.Queue;

/**
 * Queues by name, for the dynamic case where a {@code Queue<T>} bean cannot be injected (a queue
 * name known only at runtime). The same queue object for the same name.
 */
public interface QueueRegistry {
    /**
     * @param name the queue name
     * @param dataType the class of the jobs' data
     * @param <T> the type of the jobs' data
     * @return the queue
     * @throws IllegalArgumentException for an illegal name, or a name already used for another type
     */
    <T> Queue<T> queue(String name, Class<T> dataType);

    /**
     * @param name the queue name
     * @param dataType the generic type of the jobs' data
     * @param <T> the type of the jobs' data
     * @return the queue
     * @throws IllegalArgumentException for an illegal name, or a name already used for another type
     */
    <T> Queue<T> queue(String name, TypeReference<T> dataType);
}
