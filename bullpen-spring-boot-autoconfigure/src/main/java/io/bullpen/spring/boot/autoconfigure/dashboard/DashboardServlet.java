package io.bullpen.spring.boot.autoconfigure.dashboard;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.bullpen.dashboard.DashboardHandler;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves the dashboard's {@link DashboardHandler} under a servlet mapping {@code <path>/*}:
 * every request runs async (so an event stream outlives {@link #service}), the handler sees the
 * path below the mapping, and the bare path redirects to {@code <path>/} (the page's URLs are
 * relative). A read of the API is refused here (401, naming the ways to open it) when reads need
 * the token and none is configured ({@link DashboardReadAccess}); otherwise the handler checks the
 * token of reads and actions.
 */
final class DashboardServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(DashboardServlet.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final transient DashboardHandler handler;
    private final transient DashboardReadAccess access;

    DashboardServlet(DashboardHandler handler, DashboardReadAccess access) {
        this.handler = handler;
        this.access = access;
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        // The raw path below the mapping: the mount point is plain characters (checked at startup),
        // so its decoded length is its raw length.
        String rawPath = request.getRequestURI()
                .substring(request.getContextPath().length() + request.getServletPath().length());
        if (rawPath.isEmpty()) {
            String query = request.getQueryString();
            response.sendRedirect(request.getRequestURI() + "/" + (query == null ? "" : "?" + query));
            return;
        }
        if (rawPath.startsWith("/api/") && "GET".equals(request.getMethod()) && access.refusesEveryRead()) {
            refuse(response);
            return;
        }
        URI uri;
        try {
            String query = request.getQueryString();
            uri = new URI(rawPath + (query == null ? "" : "?" + query));
        } catch (URISyntaxException e) {
            response.sendError(400, "malformed request URI");
            return;
        }
        AsyncContext async = request.startAsync();
        async.setTimeout(0);
        ServletExchange exchange;
        try {
            exchange = new ServletExchange(request, response, async, uri);
        } catch (IOException | RuntimeException e) {
            async.complete();
            throw e;
        }
        try {
            handler.handle(exchange);
        } catch (IOException | RuntimeException e) {
            log.debug("{} {}: {}", request.getMethod(), rawPath, e.toString());
            exchange.close();
        }
    }

    /** 401 with the reason as the dashboard's JSON error: reads need a token and none is configured. */
    private void refuse(HttpServletResponse response) throws IOException {
        response.setStatus(401);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        response.setHeader("Cache-Control", "no-store");
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.getWriter().write(JSON.createObjectNode().put("error", access.refusal()).toString());
    }
}
