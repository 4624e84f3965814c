package io.bullpen.dashboard;

import com.sun.net.httpserver.HttpServer;
import io.bullpen.internal.Validation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.redisson.api.RedissonClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bullpen's web dashboard: live per-state counts of every queue, job lists and details, job
 * schedulers and metrics, each queue's limits and groups, and actions (retry, promote, remove,
 * clean, pause, resume, pause or resume a group) on the JDK's built-in HTTP server. The HTTP API is described in the module's {@code API.md}.
 *
 * <pre>{@code
 * Dashboard dashboard = Dashboard.builder(redisson)
 *         .port(8080)
 *         .token(System.getenv("BULLPEN_DASHBOARD_TOKEN"))
 *         .build();
 * dashboard.start();
 * log.info("dashboard at {}", dashboard.url());
 * ...
 * dashboard.close();
 * }</pre>
 *
 * <p>Safe by default: it listens on 127.0.0.1 only, answers only loopback {@code Host} names
 * there, and allows actions only with the configured token sent in the {@code X-Bullpen-Token}
 * header. Reachable from the network, set {@link Builder#tokenForReads(boolean)} so reads need the
 * token too. It does not own the {@link RedissonClient}.
 */
public final class Dashboard implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Dashboard.class);
    /** Threads answering requests (event streams have threads of their own). */
    static final int HTTP_THREADS = 8;

    private final String host;
    private final int port;
    private final boolean readOnly;
    private final Duration pollInterval;
    private final Duration pingInterval;
    private final int maxEventStreams;
    private final StaticFiles staticFiles;
    private final QueueRegistry registry;
    private final Auth auth;
    private final BooleanSupplier tokenForReads;
    private final Object lock = new Object();
    private HttpServer server;
    private ExecutorService httpThreads;
    private EventsHub events;
    private boolean closed;

    private Dashboard(Builder b) {
        this.host = b.host;
        this.port = b.port;
        this.readOnly = b.readOnly;
        this.pollInterval = b.pollInterval;
        this.pingInterval = b.pingInterval;
        this.maxEventStreams = b.maxEventStreams;
        this.staticFiles = b.staticFiles;
        this.registry = new QueueRegistry(b.redisson, b.prefix, b.queues.isEmpty() ? null : b.queues);
        this.auth = new Auth(b.token);
        this.tokenForReads = b.tokenForReads;
    }

    /**
     * Starts configuring a dashboard.
     *
     * @param redisson the Redis client holding the queues (any codec)
     * @return a builder with the defaults: 127.0.0.1:8080, no token, prefix "bp", every queue
     */
    public static Builder builder(RedissonClient redisson) {
        return new Builder(redisson);
    }

    /**
     * Binds the port and starts serving.
     *
     * @throws UncheckedIOException when the address cannot be bound (e.g. the port is taken)
     * @throws IllegalStateException when already started or closed
     */
    public void start() {
        synchronized (lock) {
            if (closed || server != null) {
                throw new IllegalStateException(closed ? "the dashboard is closed" : "the dashboard is already started");
            }
            boolean actions = auth.configured() && !readOnly;
            InetSocketAddress address;
            HttpServer http;
            try {
                address = new InetSocketAddress(InetAddress.getByName(host), port);
                http = HttpServer.create(address, 0);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot bind the dashboard to " + host + ":" + port, e);
            }
            ApiHandler api = api();
            EventsHub hub = newHub(api);
            http.createContext("/", router(new AllowedHosts(address.getAddress()), api, hub));
            httpThreads = Executors.newFixedThreadPool(HTTP_THREADS, DaemonThreads.named("bullpen-dashboard-http-"));
            http.setExecutor(httpThreads);
            hub.start();
            http.start();
            this.server = http;
            this.events = hub;
            boolean readsNeedToken = tokenForReads.getAsBoolean();
            log.info("Bullpen dashboard at {} ({}{})", url(), readOnly ? "read-only"
                    : actions ? "actions enabled" : "actions disabled: no token configured",
                    readsNeedToken ? "; reads need the token" : "");
            if (actions && !address.getAddress().isLoopbackAddress()) {
                log.warn("the dashboard's actions are reachable from the network over plain HTTP on {}: "
                        + "put it behind TLS", host);
            }
            if (!readsNeedToken && !address.getAddress().isLoopbackAddress()) {
                log.warn("the dashboard on {} shows queues and job data (data, failed reasons, stack traces) to "
                        + "anyone who reaches it: set a token and tokenForReads(true), or keep it on 127.0.0.1", host);
            }
        }
    }

    private ApiHandler api() {
        return new ApiHandler(registry, readOnly, auth.configured() && !readOnly);
    }

    private EventsHub newHub(ApiHandler api) {
        return new EventsHub(() -> JsonViews.object().set("queues", api.summaries()),
                pollInterval, pingInterval, maxEventStreams);
    }

    private Router router(AllowedHosts hosts, ApiHandler api, EventsHub hub) {
        ActionHandler actionHandler = readOnly ? null : new ActionHandler(registry, auth);
        return Router.table(hosts, api, actionHandler, hub, staticFiles, request -> {
            if (tokenForReads.getAsBoolean()) {
                auth.requireForRead(request);
            }
        });
    }

    /** The routes and a started event poller, for {@link Builder#buildHandler(InetAddress)}. */
    private DashboardHandler handler(InetAddress servedOn) {
        ApiHandler api = api();
        EventsHub hub = newHub(api);
        Router router = router(new AllowedHosts(servedOn), api, hub);
        hub.start();
        log.info("Bullpen dashboard handler ready ({})", readOnly ? "read-only"
                : auth.configured() ? "actions enabled" : "actions disabled: no token configured");
        return new DashboardHandler(router, hub);
    }

    /**
     * The address to open in a browser, e.g. {@code http://127.0.0.1:54321/}: the bound address
     * and the actual port (also when built with port 0). A wildcard bind address ({@code 0.0.0.0})
     * is reported as 127.0.0.1.
     *
     * @return the dashboard's URL, ending in "/"
     * @throws IllegalStateException before {@link #start()}
     */
    public String url() {
        InetSocketAddress a = address();
        InetAddress ip = a.getAddress();
        String host = ip.isAnyLocalAddress() ? "127.0.0.1"
                : ip instanceof Inet6Address ? "[" + ip.getHostAddress().replaceFirst("%.*$", "") + "]"
                : ip.getHostAddress();
        return "http://" + host + ":" + a.getPort() + "/";
    }

    /** @return the address the server socket is bound to (tests check it is loopback) */
    InetSocketAddress address() {
        synchronized (lock) {
            if (server == null) {
                throw new IllegalStateException("the dashboard is not started");
            }
            return server.getAddress();
        }
    }

    /**
     * Stops serving: ends every open event stream, closes the server socket and every
     * connection, and stops the threads. Idempotent; a dashboard cannot be started again.
     */
    @Override
    public void close() {
        HttpServer http;
        EventsHub hub;
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            http = server;
            hub = events;
        }
        if (http == null) {
            return;
        }
        hub.close();
        http.stop(0);
        httpThreads.shutdown();
        try {
            if (!httpThreads.awaitTermination(2, TimeUnit.SECONDS)) {
                httpThreads.shutdownNow();
            }
        } catch (InterruptedException e) {
            httpThreads.shutdownNow();
            Thread.currentThread().interrupt();
        }
        log.info("Bullpen dashboard closed");
    }

    /** Configures a {@link Dashboard}; {@link #build()} checks nothing against Redis yet. */
    public static final class Builder {
        private final RedissonClient redisson;
        private String host = "127.0.0.1";
        private int port = 8080;
        private String token;
        private boolean readOnly;
        private String prefix = "bp";
        private final Set<String> queues = new LinkedHashSet<>();
        private Duration pollInterval = Duration.ofSeconds(1);
        private Duration pingInterval = Duration.ofSeconds(15);
        private int maxEventStreams = 32;
        private StaticFiles staticFiles = new StaticFiles();
        private BooleanSupplier tokenForReads = () -> false;

        private Builder(RedissonClient redisson) {
            this.redisson = Objects.requireNonNull(redisson, "redisson");
        }

        /**
         * @param port the TCP port, 0 for any free one (see {@link Dashboard#url()}); default 8080
         * @return this builder
         * @throws IllegalArgumentException outside 0-65535
         */
        public Builder port(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port must be 0-65535 but was " + port);
            }
            this.port = port;
            return this;
        }

        /**
         * @param host the address to listen on; default 127.0.0.1 (this machine only).
         *     {@code "0.0.0.0"} exposes the dashboard to the network: put it behind TLS then
         * @return this builder
         */
        public Builder host(String host) {
            if (host == null || host.isBlank()) {
                throw new IllegalArgumentException("host must not be blank but was " + (host == null ? "null" : "\"" + host + "\""));
            }
            this.host = host.trim();
            return this;
        }

        /**
         * @param token the secret that actions must send in the {@code X-Bullpen-Token} header;
         *     null or blank (the default): no actions are allowed
         * @return this builder
         */
        public Builder token(String token) {
            this.token = token == null || token.isBlank() ? null : token;
            return this;
        }

        /**
         * @param required true: reading the API (queues, jobs with their data, failed reasons and
         *     stack traces, the live events) needs the token too, in the {@code X-Bullpen-Token}
         *     header; the page asks for it once and keeps it for the browser tab (sessionStorage).
         *     Without a configured token every read is then refused (401). Default false: reads
         *     are open, which suits the default 127.0.0.1 binding; set it when the dashboard is
         *     reachable from the network
         * @return this builder
         */
        public Builder tokenForReads(boolean required) {
            this.tokenForReads = () -> required;
            return this;
        }

        /**
         * As {@link #tokenForReads(boolean)}, decided by the server that mounts the handler
         * ({@link #buildHandler(InetAddress)}) once it knows, e.g. after its security
         * configuration is built: asked on every read, so it must be cheap.
         *
         * @param required whether reads need the token
         * @return this builder
         */
        public Builder tokenForReads(BooleanSupplier required) {
            this.tokenForReads = Objects.requireNonNull(required, "required");
            return this;
        }

        /**
         * @param readOnly true: no action routes at all (they answer 404) and the page shows no
         *     buttons; default false
         * @return this builder
         */
        public Builder readOnly(boolean readOnly) {
            this.readOnly = readOnly;
            return this;
        }

        /**
         * @param prefix the key prefix the queues were built with; default "bp"
         * @return this builder
         * @throws IllegalArgumentException for an illegal prefix
         */
        public Builder prefix(String prefix) {
            this.prefix = Validation.prefix(prefix);
            return this;
        }

        /**
         * Shows only these queues (still only while they are in the registry); by default every
         * registered queue is shown.
         *
         * @param names queue names
         * @return this builder
         * @throws IllegalArgumentException for an illegal queue name
         */
        public Builder queues(String... names) {
            for (String name : names) {
                queues.add(Validation.queueName(name));
            }
            return this;
        }

        /** How often the event poller reads the counts (tests shorten it). */
        Builder pollInterval(Duration interval) {
            this.pollInterval = interval;
            return this;
        }

        /** How long an event stream stays silent before a ping (tests shorten it). */
        Builder pingInterval(Duration interval) {
            this.pingInterval = interval;
            return this;
        }

        /** The most event streams open at once. */
        Builder maxEventStreams(int max) {
            this.maxEventStreams = max;
            return this;
        }

        /** Where the page's files come from (tests serve their own). */
        Builder staticFiles(StaticFiles files) {
            this.staticFiles = files;
            return this;
        }

        /**
         * Builds the dashboard's request handler without a server of its own, to mount under
         * another HTTP server; {@link #port(int)} and {@link #host(String)} do not apply. The event poller starts now: close the handler
         * when the server stops.
         *
         * @param servedOn the address the serving server listens on, for the {@code Host} check
         *     against DNS rebinding: a loopback address answers loopback host names only (as
         *     {@link Dashboard} does on 127.0.0.1); null (every interface) or any other address
         *     answers every host
         * @return the started handler
         */
        public DashboardHandler buildHandler(InetAddress servedOn) {
            if (token != null && token.length() < 16 && !readOnly) {
                log.warn("the dashboard token is only {} characters: use a long random one", token.length());
            }
            return new Dashboard(this).handler(servedOn);
        }

        /**
         * @return the dashboard, not yet listening: call {@link Dashboard#start()}
         */
        public Dashboard build() {
            if (token != null && token.length() < 16 && !readOnly) {
                log.warn("the dashboard token is only {} characters: use a long random one", token.length());
            }
            return new Dashboard(this);
        }
    }
}
