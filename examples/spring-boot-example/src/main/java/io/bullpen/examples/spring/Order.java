package io.bullpen.examples.spring;

/**
 * The data of an order job.
 *
 * @param id the order's id
 * @param items how many items to pack; each takes {@code example.pack-millis-per-item}
 */
public record Order(String id, int items) {
}
