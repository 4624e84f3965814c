package io.bullpen.examples.spring;

import io.bullpen.Job;
import io.bullpen.Queue;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /orders} adds a job, {@code GET /orders/{jobId}} reads its state and result.
 * The {@code Queue<Order>} bean is there because a worker method takes {@code Order}.
 */
@RestController
public class OrderController {
    private final Queue<Order> orders;

    /** @param orders the queue of the {@code orders} worker */
    public OrderController(Queue<Order> orders) {
        this.orders = orders;
    }

    /**
     * Adds an order job.
     *
     * @param order the order, e.g. {@code {"id":"o-1","items":3}}
     * @return 202 with the job's id
     */
    @PostMapping("/orders")
    public ResponseEntity<Map<String, String>> place(@RequestBody Order order) {
        if (order.id() == null || order.id().isBlank() || order.items() < 0) {
            throw new IllegalArgumentException("an order needs an id and items >= 0, got " + order);
        }
        Job<Order> job = orders.add("pack", order);
        return ResponseEntity.status(HttpStatus.ACCEPTED).body(Map.of("jobId", job.id()));
    }

    /**
     * Reads a job.
     *
     * @param jobId the id {@link #place} answered
     * @return its state, progress and result; 404 when there is no such job
     */
    @GetMapping("/orders/{jobId}")
    public ResponseEntity<Map<String, Object>> get(@PathVariable String jobId) {
        return orders.getJob(jobId).map(job -> {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("jobId", job.id());
            body.put("state", orders.getState(jobId).name().toLowerCase(Locale.ROOT));
            body.put("progress", job.progress(Integer.class).orElse(0));
            body.put("result", job.returnValue(String.class).orElse(null));
            return ResponseEntity.ok(body);
        }).orElse(ResponseEntity.notFound().build());
    }
}
