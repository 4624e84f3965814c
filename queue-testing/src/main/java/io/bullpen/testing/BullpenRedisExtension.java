package io.bullpen.testing;

import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.redisson.api.RedissonClient;

/**
 * Gives each test class its own real Redis server and Redisson client (usually via
 * {@link BullpenTest}).
 *
 * <p>The server is chosen in this order:
 * <ol>
 *   <li>{@code BULLPEN_TEST_REDIS=external|process|embedded|container|cluster} forces a kind, and the
 *       class fails clearly when that kind is impossible here (each setting may also be given as a
 *       system property of the same name);</li>
 *   <li>{@code REDIS_CLUSTER_URL} (comma-separated {@code redis://host:port} nodes) names an existing
 *       Redis Cluster: nothing is started, nothing flushed;</li>
 *   <li>{@code REDIS_URL} names an existing server: nothing is started, nothing flushed;</li>
 *   <li>a {@code redis-server} binary on the PATH (or in /usr/bin, /usr/sbin) runs as a child
 *       process on a free loopback port, persistence off;</li>
 *   <li>else the Redis bundled in {@code org.signal:embedded-redis}.</li>
 * </ol>
 * A Docker container ({@code redis:7.0}, through the optional Testcontainers dependency) is used
 * only when {@code BULLPEN_TEST_REDIS=container} asks for it.
 * {@code BULLPEN_TEST_REDIS=cluster} without {@code REDIS_CLUSTER_URL} starts a Redis Cluster of 3
 * masters and 3 replicas from {@code redis-server} processes once per JVM, shared by every class
 * (each class starts from empty masters: FLUSHALL before it) and stopped when the JVM exits; the
 * clients are then cluster-mode clients reading from masters.
 *
 * <p>Parameters of type {@link BullpenTestContext}, {@link RedissonClient}, {@link SettableClock}
 * and {@link TestRedis} resolve in constructors, test methods and lifecycle methods. The client and
 * clock are those of the method's {@link BullpenTestContext}. {@code @Nested} classes share the
 * server of their enclosing class.
 *
 * <p>Runs on JUnit Jupiter 5.10 and later, 6.x included: it uses only extension APIs present in
 * 5.10, and queue-testing declares the Jupiter API {@code provided}, so the user's own JUnit is
 * the one on the test class path.
 */
public final class BullpenRedisExtension
        implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(BullpenRedisExtension.class);
    private static final String RESOURCES = "resources";
    private static final Set<Class<?>> TYPES =
            Set.of(BullpenTestContext.class, RedissonClient.class, SettableClock.class, TestRedis.class);

    /** Creates the extension; JUnit does this. */
    public BullpenRedisExtension() {
    }

    /**
     * Starts the class's server and client unless an enclosing class (or constructor injection in a
     * per-class lifecycle) already did.
     *
     * @param context the class context
     */
    @Override
    public void beforeAll(ExtensionContext context) {
        resources(context);
    }

    /**
     * Starts a server that an earlier test left stopped, and creates this test's context.
     *
     * @param context the test method context
     */
    @Override
    public void beforeEach(ExtensionContext context) {
        resources(context).redis().ensureRunning();
        testContext(context);
    }

    /**
     * Closes the clients and stops the server started for this class (not an enclosing class's).
     *
     * @param context the class context
     */
    @Override
    public void afterAll(ExtensionContext context) {
        ClassResources resources = context.getStore(NAMESPACE).get(RESOURCES, ClassResources.class);
        if (resources != null && resources.ownerId().equals(context.getUniqueId())) {
            resources.close();
        }
    }

    /**
     * Whether the parameter is one of the four types this extension provides.
     *
     * @param parameterContext the parameter
     * @param extensionContext the context
     * @return true for BullpenTestContext, RedissonClient, SettableClock and TestRedis
     */
    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return TYPES.contains(parameterContext.getParameter().getType());
    }

    /**
     * Provides the parameter, starting the server first if needed.
     *
     * @param parameterContext the parameter
     * @param extensionContext the context
     * @return the value
     */
    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        Class<?> type = parameterContext.getParameter().getType();
        if (type == TestRedis.class) {
            return resources(extensionContext).redis();
        }
        BullpenTestContext testContext = testContext(extensionContext);
        if (type == RedissonClient.class) {
            return testContext.redisson();
        }
        if (type == SettableClock.class) {
            return testContext.clock();
        }
        return testContext;
    }

    /** The class's resources, started on first use; found in an enclosing class's store when nested. */
    private static ClassResources resources(ExtensionContext context) {
        ExtensionContext classContext = classContext(context);
        // The lookup also sees the stores of enclosing classes, so @Nested classes share a server.
        return getOrCompute(classContext.getStore(NAMESPACE), RESOURCES,
                () -> ClassResources.start(classContext.getUniqueId(), classContext.getDisplayName()),
                ClassResources.class);
    }

    /** One context per extension context: keyed by unique id so a method never inherits the class's one. */
    private static BullpenTestContext testContext(ExtensionContext context) {
        ClassResources resources = resources(context);
        return getOrCompute(context.getStore(NAMESPACE), "context:" + context.getUniqueId(),
                () -> new BullpenTestContext(resources.client(), resources.redis()), BullpenTestContext.class);
    }

    /**
     * The store's value for the key, created on first use. Uses {@code getOrComputeIfAbsent}, the
     * one form present in every supported Jupiter (5.10 to 6.x): its successor
     * {@code computeIfAbsent} exists only from 6.0 on, and a user's test on 5.x would fail with
     * NoSuchMethodError. It is deprecated in 6.x, not marked for removal.
     */
    @SuppressWarnings("deprecation")
    private static <V> V getOrCompute(ExtensionContext.Store store, String key, Supplier<V> create, Class<V> type) {
        return store.getOrComputeIfAbsent(key, k -> create.get(), type);
    }

    /** The nearest enclosing context that belongs to a class rather than to a method. */
    private static ExtensionContext classContext(ExtensionContext context) {
        ExtensionContext current = context;
        while (current.getTestMethod().isPresent() && current.getParent().isPresent()) {
            current = current.getParent().get();
        }
        return current;
    }
}
