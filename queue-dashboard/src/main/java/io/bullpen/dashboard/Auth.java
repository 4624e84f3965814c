package io.bullpen.dashboard;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The token check of actions, and of reads when the dashboard is built with
 * {@code tokenForReads}. The token comes only from the {@value #HEADER} header, never from a
 * cookie or the query string, so a cross-site form or link cannot carry it (and a browser sends
 * a custom header cross-site only after a CORS preflight, which this server never allows). The
 * comparison is over SHA-256 digests with {@link MessageDigest#isEqual}: its time depends on
 * neither the token's content nor its length.
 */
final class Auth {
    static final String HEADER = "X-Bullpen-Token";

    private final byte[] expected;

    /** @param token the configured token; null or blank: no action is ever allowed */
    Auth(String token) {
        this.expected = token == null || token.isBlank() ? null : sha256(token);
    }

    /** @return whether a token is configured */
    boolean configured() {
        return expected != null;
    }

    /**
     * @param request an action request
     * @throws HttpError 401 when no token is configured, or the header is missing or wrong
     */
    void require(Request request) {
        if (expected == null) {
            throw HttpError.unauthorized("actions are disabled: the dashboard has no token configured");
        }
        check(request, "missing " + HEADER + " header");
    }

    /**
     * @param request a read request of a dashboard whose reads need the token
     * @throws HttpError 401 when no token is configured, or the header is missing or wrong
     */
    void requireForRead(Request request) {
        if (expected == null) {
            throw HttpError.unauthorized("this dashboard's reads need its token, and it has none configured");
        }
        check(request, "missing " + HEADER + " header: this dashboard's reads need its token");
    }

    private void check(Request request, String missing) {
        String given = request.header(HEADER);
        if (given == null || given.isEmpty()) {
            throw HttpError.unauthorized(missing);
        }
        if (!MessageDigest.isEqual(expected, sha256(given))) {
            throw HttpError.unauthorized("wrong token in the " + HEADER + " header");
        }
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
