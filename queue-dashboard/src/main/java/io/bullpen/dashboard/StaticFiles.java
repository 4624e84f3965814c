package io.bullpen.dashboard;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Serves the page: classpath resources under {@value #ROOT} ({@code /} is {@code index.html}).
 * Only a single path segment made of letters, digits, {@code - _ .} with a known extension is
 * looked up, so no request reaches outside the folder ({@code ..}, slashes and encoded slashes
 * never match); anything else, or a missing file, is 404.
 */
final class StaticFiles {
    /** Where the page's files live on the classpath. */
    static final String ROOT = "io/bullpen/dashboard/static/";

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]*(\\.[A-Za-z0-9_-]+)*\\.([A-Za-z0-9]+)");
    private static final Map<String, String> TYPES = Map.ofEntries(
            Map.entry("html", "text/html; charset=utf-8"),
            Map.entry("js", "text/javascript; charset=utf-8"),
            Map.entry("mjs", "text/javascript; charset=utf-8"),
            Map.entry("css", "text/css; charset=utf-8"),
            Map.entry("json", "application/json; charset=utf-8"),
            Map.entry("map", "application/json; charset=utf-8"),
            Map.entry("txt", "text/plain; charset=utf-8"),
            Map.entry("svg", "image/svg+xml"),
            Map.entry("png", "image/png"),
            Map.entry("ico", "image/x-icon"),
            Map.entry("woff2", "font/woff2"));

    private record File(String contentType, byte[] bytes) {
    }

    private final ClassLoader loader;
    private final String root;
    /** Files found (misses are not kept, so odd requests cannot fill it). */
    private final Map<String, File> cache = new ConcurrentHashMap<>();

    /** Serves {@value #ROOT} from the dashboard's own class loader. */
    StaticFiles() {
        this(StaticFiles.class.getClassLoader(), ROOT);
    }

    /** Serves {@code root} (a resource folder ending in "/") from {@code loader}; tests use their own. */
    StaticFiles(ClassLoader loader, String root) {
        this.loader = loader;
        this.root = root;
    }

    /** {@code GET /}: index.html. */
    void index(Request request) throws IOException {
        serve(request, "index.html");
    }

    /** {@code GET /{file}} */
    void file(Request request) throws IOException {
        serve(request, request.param("file"));
    }

    private void serve(Request request, String name) throws IOException {
        File file = cache.get(name);
        if (file == null) {
            file = load(name).orElseThrow(() -> HttpError.notFound("no such file: " + Params.quote(name)));
            cache.put(name, file);
        }
        Responses.send(request.exchange(), 200, file.contentType(), "no-cache", file.bytes());
    }

    private Optional<File> load(String name) {
        var m = NAME.matcher(name);
        if (!m.matches() || !TYPES.containsKey(m.group(2))) {
            return Optional.empty();
        }
        URL url = loader.getResource(root + name);
        if (url == null) {
            return Optional.empty();
        }
        try (InputStream in = url.openStream()) {
            return Optional.of(new File(TYPES.get(m.group(2)), in.readAllBytes()));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot read " + root + name, e);
        }
    }
}
