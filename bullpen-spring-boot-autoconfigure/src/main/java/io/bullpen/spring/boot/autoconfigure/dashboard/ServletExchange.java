package io.bullpen.spring.boot.autoconfigure.dashboard;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpPrincipal;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One servlet request as the dashboard's handler sees it: the JDK server's {@link HttpExchange}
 * over an async {@link HttpServletRequest}/{@link HttpServletResponse}. {@link #close()} completes
 * the async request, so an event stream stays open after the servlet returned until the
 * dashboard's own thread closes it.
 */
final class ServletExchange extends HttpExchange {
    private final HttpServletRequest request;
    private final HttpServletResponse response;
    private final AsyncContext async;
    private final URI uri;
    private final Headers requestHeaders = new Headers();
    private final Headers responseHeaders = new Headers();
    private final AtomicBoolean closed = new AtomicBoolean();
    private InputStream in;
    private OutputStream out;
    private int status = -1;

    /**
     * @param uri the request's path relative to the mount point, with the raw query
     */
    ServletExchange(HttpServletRequest request, HttpServletResponse response, AsyncContext async, URI uri)
            throws IOException {
        this.request = request;
        this.response = response;
        this.async = async;
        this.uri = uri;
        for (String name : Collections.list(request.getHeaderNames())) {
            requestHeaders.put(name, Collections.list(request.getHeaders(name)));
        }
        this.in = request.getInputStream();
        // Closing the body stream (the dashboard does after each response) must not end an async request early.
        this.out = new FilterOutputStream(response.getOutputStream()) {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
            }

            @Override
            public void close() throws IOException {
                flush();
            }
        };
    }

    @Override
    public Headers getRequestHeaders() {
        return requestHeaders;
    }

    @Override
    public Headers getResponseHeaders() {
        return responseHeaders;
    }

    @Override
    public URI getRequestURI() {
        return uri;
    }

    @Override
    public String getRequestMethod() {
        return request.getMethod();
    }

    @Override
    public HttpContext getHttpContext() {
        return null;
    }

    /** Completes the async request (once); the servlet container sends what is left. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            try {
                out.flush();
            } catch (IOException e) {
                // the client went away: completing is all that is left
            } finally {
                try {
                    async.complete();
                } catch (IllegalStateException e) {
                    // the container already ended the request (it stopped, or the client timed out)
                }
            }
        }
    }

    @Override
    public InputStream getRequestBody() {
        return in;
    }

    @Override
    public OutputStream getResponseBody() {
        return out;
    }

    /** As the JDK server: length -1 no body, 0 a body of unknown length (streamed), else the length. */
    @Override
    public void sendResponseHeaders(int code, long length) throws IOException {
        if (status != -1) {
            throw new IOException("headers already sent");
        }
        status = code;
        response.setStatus(code);
        for (Map.Entry<String, List<String>> header : responseHeaders.entrySet()) {
            for (String value : header.getValue()) {
                response.addHeader(header.getKey(), value);
            }
        }
        if (length > 0) {
            response.setContentLengthLong(length);
        } else if (length < 0) {
            response.setContentLength(0);
        } else {
            response.flushBuffer();
        }
    }

    @Override
    public InetSocketAddress getRemoteAddress() {
        return InetSocketAddress.createUnresolved(request.getRemoteAddr(), request.getRemotePort());
    }

    @Override
    public int getResponseCode() {
        return status;
    }

    @Override
    public InetSocketAddress getLocalAddress() {
        return InetSocketAddress.createUnresolved(request.getLocalAddr(), request.getLocalPort());
    }

    @Override
    public String getProtocol() {
        return request.getProtocol();
    }

    @Override
    public Object getAttribute(String name) {
        return request.getAttribute(name);
    }

    @Override
    public void setAttribute(String name, Object value) {
        request.setAttribute(name, value);
    }

    @Override
    public void setStreams(InputStream i, OutputStream o) {
        if (i != null) {
            in = i;
        }
        if (o != null) {
            out = o;
        }
    }

    @Override
    public HttpPrincipal getPrincipal() {
        return null;
    }
}
