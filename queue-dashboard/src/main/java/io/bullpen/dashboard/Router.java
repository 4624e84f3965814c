package io.bullpen.dashboard;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.bullpen.JobLockedException;
import io.bullpen.JobNotFoundException;
import io.bullpen.JobStateException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The route table and what every request goes through:
 * <ol>
 *   <li>set the security headers (CSP, nosniff, frame and referrer policy);</li>
 *   <li>refuse a Host header the server does not answer to (DNS rebinding) with 403;</li>
 *   <li>refuse a body over {@value #MAX_BODY_BYTES} bytes with 413;</li>
 *   <li>find the route by method and path ({@code {name}} segments are parameters): 404, or 405
 *       when only the method is wrong;</li>
 *   <li>run the handler, turning failures into JSON errors: bad values 400, unknown queue, job
 *       or group 404, wrong job state or a locked job 409, anything else 500 (logged, generic text).</li>
 * </ol>
 */
final class Router implements HttpHandler {
    /** Handles a matched request; it sends the response (and closes the exchange or takes it over). */
    interface Handler {
        void handle(Request request) throws IOException;
    }

    /** The largest request body accepted: the API takes none. */
    static final int MAX_BODY_BYTES = 1024;

    private static final Logger log = LoggerFactory.getLogger(Router.class);

    private record Route(String method, String[] segments, Handler handler) {
    }

    private final List<Route> routes = new ArrayList<>();
    private final Predicate<String> allowedHost;

    Router(Predicate<String> allowedHost) {
        this.allowedHost = allowedHost;
    }

    /**
     * The route table: every path the dashboard answers.
     *
     * @param actions the action routes, or null in read-only mode (they then do not exist: 404)
     * @param reads checks a read of the API ({@code /api/*} GETs, the event stream included) before
     *     it runs; the page's static files are never checked (a browser cannot send a header when
     *     it opens a page: the page asks for the token and sends it with its API reads)
     */
    static Router table(Predicate<String> allowedHost, ApiHandler api, ActionHandler actions, EventsHub events,
                        StaticFiles files, Consumer<Request> reads) {
        Router router = new Router(allowedHost)
                .get("/api/config", guarded(reads, api::config))
                .get("/api/queues", guarded(reads, api::queues))
                .get("/api/queues/{q}", guarded(reads, api::queue))
                .get("/api/queues/{q}/jobs", guarded(reads, api::jobs))
                .get("/api/queues/{q}/search", guarded(reads, api::search))
                .get("/api/queues/{q}/jobs/{id}", guarded(reads, api::job))
                .get("/api/queues/{q}/jobs/{id}/children", guarded(reads, api::children))
                .get("/api/queues/{q}/limits", guarded(reads, api::limits))
                .get("/api/queues/{q}/groups", guarded(reads, api::groups))
                .get("/api/queues/{q}/workers", guarded(reads, api::workers))
                .get("/api/limits", guarded(reads, api::allLimits))
                .get("/api/events", guarded(reads, events::connect))
                .get("/", files::index)
                .get("/{file}", files::file);
        if (actions != null) {
            router.post("/api/queues/{q}/jobs/{id}/retry", actions::retry)
                    .post("/api/queues/{q}/jobs/{id}/promote", actions::promote)
                    .post("/api/queues/{q}/jobs/{id}/remove", actions::remove)
                    .post("/api/queues/{q}/jobs/{id}/cancel", actions::cancel)
                    .post("/api/queues/{q}/retry-failed", actions::retryFailed)
                    .post("/api/queues/{q}/clean", actions::clean)
                    .post("/api/queues/{q}/pause", actions::pause)
                    .post("/api/queues/{q}/resume", actions::resume)
                    .post("/api/queues/{q}/groups/{g}/pause", actions::pauseGroup)
                    .post("/api/queues/{q}/groups/{g}/resume", actions::resumeGroup);
        }
        return router;
    }

    private static Handler guarded(Consumer<Request> check, Handler handler) {
        return request -> {
            check.accept(request);
            handler.handle(request);
        };
    }

    Router get(String pattern, Handler handler) {
        return add("GET", pattern, handler);
    }

    Router post(String pattern, Handler handler) {
        return add("POST", pattern, handler);
    }

    private Router add(String method, String pattern, Handler handler) {
        routes.add(new Route(method, segments(pattern), handler));
        return this;
    }

    @Override
    public void handle(HttpExchange exchange) {
        Responses.securityHeaders(exchange.getResponseHeaders());
        String method = exchange.getRequestMethod();
        String path = exchange.getRequestURI().getRawPath();
        try {
            String host = exchange.getRequestHeaders().getFirst("Host");
            if (!allowedHost.test(host)) {
                throw new HttpError(403, "host \"" + host + "\" is not allowed: open the dashboard by its address");
            }
            refuseLargeBody(exchange);
            dispatch(exchange, method, path);
        } catch (HttpError e) {
            fail(exchange, e.status(), e.getMessage());
        } catch (JobNotFoundException e) {
            fail(exchange, 404, e.getMessage());
        } catch (JobStateException | JobLockedException e) {
            fail(exchange, 409, e.getMessage());
        } catch (IllegalArgumentException e) {
            fail(exchange, 400, e.getMessage());
        } catch (IOException e) {
            log.debug("{} {}: client went away: {}", method, path, e.toString());
            exchange.close();
        } catch (RuntimeException | Error e) {
            log.error("{} {} failed", method, path, e);
            fail(exchange, 500, "internal error (see the server log)");
        }
    }

    private void dispatch(HttpExchange exchange, String method, String path) throws IOException {
        String[] parts = segments(path == null ? "/" : path);
        Set<String> allowed = new LinkedHashSet<>();
        for (Route route : routes) {
            Map<String, String> params = match(route.segments(), parts);
            if (params == null) {
                continue;
            }
            if (route.method().equals(method)) {
                route.handler().handle(new Request(exchange, params));
                return;
            }
            allowed.add(route.method());
        }
        if (allowed.isEmpty()) {
            throw HttpError.notFound("no such route: " + method + " " + path);
        }
        exchange.getResponseHeaders().set("Allow", String.join(", ", allowed));
        throw new HttpError(405, "method " + method + " is not allowed on " + path + "; use " + String.join(", ", allowed));
    }

    private static Map<String, String> match(String[] pattern, String[] parts) {
        if (pattern.length != parts.length) {
            return null;
        }
        Map<String, String> params = new HashMap<>();
        for (int i = 0; i < pattern.length; i++) {
            String p = pattern[i];
            if (p.startsWith("{") && p.endsWith("}")) {
                if (parts[i].isEmpty()) {
                    return null;
                }
                params.put(p.substring(1, p.length() - 1), parts[i]);
            } else if (!p.equals(parts[i])) {
                return null;
            }
        }
        params.replaceAll((name, raw) -> Request.decodeSegment(raw));
        return params;
    }

    /** "/" has no segments; "/a/b" has "a", "b"; a trailing slash adds an empty segment. */
    private static String[] segments(String path) {
        String p = path.startsWith("/") ? path.substring(1) : path;
        return p.isEmpty() ? new String[0] : p.split("/", -1);
    }

    private static void refuseLargeBody(HttpExchange exchange) throws IOException {
        String length = exchange.getRequestHeaders().getFirst("Content-Length");
        if (length != null) {
            long declared;
            try {
                declared = Long.parseLong(length.trim());
            } catch (NumberFormatException e) {
                throw HttpError.badRequest("Content-Length must be a number but was \"" + length + "\"");
            }
            if (declared > MAX_BODY_BYTES) {
                throw tooLarge(declared + " bytes");
            }
        }
        InputStream in = exchange.getRequestBody();
        byte[] buffer = new byte[256];
        long total = 0;
        for (int n; (n = in.read(buffer)) >= 0; ) {
            total += n;
            if (total > MAX_BODY_BYTES) {
                throw tooLarge("over " + MAX_BODY_BYTES + " bytes");
            }
        }
    }

    private static HttpError tooLarge(String size) {
        return new HttpError(413, "request body too large: " + size + " (at most " + MAX_BODY_BYTES + ")");
    }

    private static void fail(HttpExchange exchange, int status, String message) {
        try {
            Responses.error(exchange, status, message);
        } catch (IOException | RuntimeException e) {
            log.debug("could not send {} ({}): {}", status, message, e.toString());
            exchange.close();
        }
    }
}
