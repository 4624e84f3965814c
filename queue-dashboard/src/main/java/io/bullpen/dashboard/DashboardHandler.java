package io.bullpen.dashboard;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;

/**
 * The dashboard without a server of its own, for mounting under another HTTP server (the
 * Spring Boot starters adapt it to a servlet): every request goes through the same routes, token
 * check, read-only mode and escaping as {@link Dashboard}. Built and started by
 * {@link Dashboard.Builder#buildHandler(java.net.InetAddress)}.
 *
 * <p>The exchange's {@link HttpExchange#getRequestURI() request URI} must be relative to the mount
 * point ({@code /api/queues}, not {@code /bullpen/api/queues}), and the mount point must end in
 * "/" when the page is opened (the page uses relative URLs). A handled exchange is closed by the
 * handler, except an event stream ({@code GET /api/events}), which stays open after
 * {@link #handle(HttpExchange)} returns and is written and closed later from the handler's own
 * threads: the caller must keep the response open until {@link HttpExchange#close()}.
 */
public final class DashboardHandler implements HttpHandler, AutoCloseable {
    private final Router router;
    private final EventsHub events;

    DashboardHandler(Router router, EventsHub events) {
        this.router = router;
        this.events = events;
    }

    /**
     * Answers one request (see the class comment for who closes the exchange).
     *
     * @param exchange the request, its URI relative to the mount point
     */
    @Override
    public void handle(HttpExchange exchange) throws IOException {
        router.handle(exchange);
    }

    /** Ends every open event stream and stops the poller; idempotent. */
    @Override
    public void close() {
        events.close();
    }
}
