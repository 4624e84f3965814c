package io.bullpen.examples;

import io.bullpen.JobLockedException;
import io.bullpen.JobOptions;
import io.bullpen.Queue;
import io.bullpen.Retention;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * "Cancel an order that is not paid within 30 minutes": a delayed job per order.
 *
 * <ol>
 *   <li>Placing an order adds a job {@code cancel-<orderId>} delayed by the payment window.</li>
 *   <li>Paying the order removes that job: the custom job id is how the payment finds it.</li>
 *   <li>When the window ends, a worker runs the job and cancels the order, unless it was paid
 *       after all: the order's own state decides, so a payment racing the job is safe.</li>
 * </ol>
 *
 * <p>Here an order is placed every few seconds, every other customer pays in time, and 30
 * minutes is scaled down to the {@code paymentWindow} given (a few seconds). The shop's
 * database is a map.
 *
 * <pre>
 * java -cp examples/target/bullpen-demo.jar io.bullpen.examples.CancelUnpaidOrderExample [--redis URL] [--duration SECONDS]
 * </pre>
 */
public final class CancelUnpaidOrderExample extends Example {
    /** The queue's name; "demo-" keeps the examples off a real application's queues. */
    public static final String QUEUE = "demo-orders";

    /** Where an order stands. */
    public enum OrderStatus {
        /** Placed, not paid yet. */
        PLACED,
        /** Paid in time: its cancellation was removed. */
        PAID,
        /** Not paid within the payment window. */
        CANCELLED
    }

    private final Duration paymentWindow;
    private final Duration orderEvery;
    // Order ids must differ between runs on the same Redis: adding a job whose custom id exists
    // (a completed one kept from an earlier run) adds nothing. A random tag per run does it.
    private final String runTag = UUID.randomUUID().toString().substring(0, 4);
    private final AtomicInteger orderNumbers = new AtomicInteger();
    private final Map<String, OrderStatus> orders = new ConcurrentHashMap<>();
    private Queue<String> cancellations;

    /** A payment window of 5 s standing for 30 minutes, and a new order every 3 s. */
    public CancelUnpaidOrderExample() {
        this(Duration.ofSeconds(5), Duration.ofSeconds(3));
    }

    /**
     * @param paymentWindow how long a customer has to pay (30 minutes in a real shop)
     * @param orderEvery how often a new order is placed
     */
    public CancelUnpaidOrderExample(Duration paymentWindow, Duration orderEvery) {
        this.paymentWindow = paymentWindow;
        this.orderEvery = orderEvery;
    }

    /**
     * Runs the example.
     *
     * @param args {@code --redis URL}, {@code --duration SECONDS}
     */
    public static void main(String[] args) {
        ExampleRunner.main("CancelUnpaidOrderExample", new CancelUnpaidOrderExample(), args);
    }

    @Override
    protected void setUp() {
        cancellations = queue(QUEUE, String.class);   // the job data is the order id
        startWorker(worker(cancellations, String.class)
                .processor(ctx -> cancelUnlessPaid(ctx.job().data())));
        every(orderEvery, "placing an order", this::placeOrderAndMaybePay);
    }

    private void placeOrderAndMaybePay() {
        int number = orderNumbers.incrementAndGet();
        String orderId = placeOrder(runTag + "-" + number);
        boolean paysInTime = number % 2 == 0;   // every other customer, halfway through the window
        if (paysInTime) {
            later(paymentWindow.dividedBy(2), "paying order " + orderId, () -> pay(orderId));
        }
    }

    /**
     * Places an order and schedules its cancellation at the end of the payment window.
     *
     * @param orderId a new order's id
     * @return the order id
     */
    public String placeOrder(String orderId) {
        orders.put(orderId, OrderStatus.PLACED);
        cancellations.add("cancel-unpaid", orderId, JobOptions.builder()
                .jobId(cancellationJobId(orderId))
                .delay(paymentWindow)                             // Duration.ofMinutes(30) in a real shop
                .removeOnComplete(Retention.keepLast(1_000))      // a busy shop would not keep them all
                .build());
        log.info("order {} placed: it is cancelled in {} unless paid", orderId, human(paymentWindow));
        return orderId;
    }

    /**
     * Pays an order: it will not be cancelled.
     *
     * @param orderId the order
     */
    public void pay(String orderId) {
        if (!orders.replace(orderId, OrderStatus.PLACED, OrderStatus.PAID)) {
            log.info("order {} cannot be paid: it is {}", orderId, orders.get(orderId));
            return;
        }
        try {
            boolean removed = cancellations.remove(cancellationJobId(orderId));
            log.info("order {} paid: its cancellation job {} {}", orderId, cancellationJobId(orderId),
                    removed ? "was removed" : "was already gone");
        } catch (JobLockedException running) {
            // The cancellation started at this very moment: it finds the order paid and stops.
            log.info("order {} paid while its cancellation was running; that job will leave it alone", orderId);
        }
    }

    private String cancelUnlessPaid(String orderId) {
        // A job runs at least once (maybe twice), and may race a payment: change the order only
        // if it is still unpaid, in one atomic step, so any number of runs has the same effect.
        if (orders.replace(orderId, OrderStatus.PLACED, OrderStatus.CANCELLED)) {
            log.info("order {} cancelled: not paid within {}", orderId, human(paymentWindow));
            return "cancelled";
        }
        OrderStatus status = orders.get(orderId);
        if (status == null) {
            log.info("order {} was placed by an earlier run of the example: nothing to cancel here", orderId);
            return "unknown order";
        }
        return "left alone: " + status.name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param orderId an order
     * @return the id of the job that cancels it
     */
    public static String cancellationJobId(String orderId) {
        return "cancel-" + orderId;
    }

    /**
     * @param orderId an order
     * @return where it stands, or empty for an order this example never placed
     */
    public Optional<OrderStatus> status(String orderId) {
        return Optional.ofNullable(orders.get(orderId));
    }

    /** @return a copy of every order and its status */
    public Map<String, OrderStatus> orders() {
        return Map.copyOf(orders);
    }

    /** @return the queue of cancellations */
    public Queue<String> cancellations() {
        return cancellations;
    }
}
