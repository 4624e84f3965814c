package io.bullpen.dashboard;

/**
 * A request the dashboard refuses with a given HTTP status and a message naming the bad value;
 * {@link Router} turns it into {@code {"error": message}}.
 */
final class HttpError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int status;

    HttpError(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    static HttpError badRequest(String message) {
        return new HttpError(400, message);
    }

    static HttpError unauthorized(String message) {
        return new HttpError(401, message);
    }

    static HttpError notFound(String message) {
        return new HttpError(404, message);
    }

    int status() {
        return status;
    }
}
