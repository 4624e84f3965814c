package io.bullpen.testing;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * An existing server named by {@code REDIS_URL} ({@code redis[s]://[[user]:password@]host[:port][/db]}).
 * The harness never starts, stops or flushes it: tests keep apart by random queue names.
 */
final class ExternalRedisServer implements RedisServerHandle {

    private final String scheme;
    private final String host;
    private final int port;
    private final String username;
    private final String password;
    private final int database;

    private ExternalRedisServer(String scheme, String host, int port, String username, String password,
            int database) {
        this.scheme = scheme;
        this.host = host;
        this.port = port;
        this.username = username;
        this.password = password;
        this.database = database;
    }

    /** Parses a Redis URL; the message names the bad value when it is not one. */
    static ExternalRedisServer parse(String url) {
        URI uri;
        try {
            uri = new URI(url.trim());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("REDIS_URL is not a URI: " + url, e);
        }
        String scheme = uri.getScheme();
        if (!"redis".equals(scheme) && !"rediss".equals(scheme)) {
            throw new IllegalArgumentException("REDIS_URL must start with redis:// or rediss:// but was " + url);
        }
        if (uri.getHost() == null) {
            throw new IllegalArgumentException("REDIS_URL has no host: " + url);
        }
        String username = null;
        String password = null;
        String userInfo = uri.getRawUserInfo();
        if (userInfo != null && !userInfo.isEmpty()) {
            int colon = userInfo.indexOf(':');
            if (colon < 0) {
                password = decode(userInfo);
            } else {
                username = colon == 0 ? null : decode(userInfo.substring(0, colon));
                password = decode(userInfo.substring(colon + 1));
            }
        }
        int database = 0;
        String path = uri.getPath();
        if (path != null && path.length() > 1) {
            try {
                database = Integer.parseInt(path.substring(1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("REDIS_URL database must be a number but was " + path, e);
            }
        }
        int port = uri.getPort() < 0 ? 6379 : uri.getPort();
        return new ExternalRedisServer(scheme, uri.getHost(), port, username, password, database);
    }

    private static String decode(String text) {
        return URLDecoder.decode(text, StandardCharsets.UTF_8);
    }

    @Override
    public RedisKind kind() {
        return RedisKind.EXTERNAL;
    }

    @Override
    public String host() {
        return host;
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public String scheme() {
        return scheme;
    }

    @Override
    public String username() {
        return username;
    }

    @Override
    public String password() {
        return password;
    }

    @Override
    public int database() {
        return database;
    }

    @Override
    public String description() {
        return "REDIS_URL (database " + database + "; never flushed)";
    }

    @Override
    public void close() {
        // Not ours to stop.
    }
}
