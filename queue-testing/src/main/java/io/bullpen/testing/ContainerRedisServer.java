package io.bullpen.testing;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * A {@code redis:7.0} container. The only class that names Testcontainers types: the dependency is
 * optional, so this class is loaded only after {@code BULLPEN_TEST_REDIS=container} asked for it.
 */
final class ContainerRedisServer implements RedisServerHandle {

    private static final DockerImageName IMAGE = DockerImageName.parse("redis:7.0");
    private static final int REDIS_PORT = 6379;

    private final GenericContainer<?> container;

    private ContainerRedisServer(GenericContainer<?> container) {
        this.container = container;
    }

    /** Whether a Docker engine answers. */
    static boolean dockerAvailable() {
        return DockerClientFactory.instance().isDockerAvailable();
    }

    /** Starts the container (persistence off, like the other kinds). */
    static RedisServerHandle launch() {
        GenericContainer<?> container = new GenericContainer<>(IMAGE)
                .withExposedPorts(REDIS_PORT)
                .withCommand("redis-server", "--save", "", "--appendonly", "no");
        container.start();
        return new ContainerRedisServer(container);
    }

    @Override
    public RedisKind kind() {
        return RedisKind.CONTAINER;
    }

    @Override
    public String host() {
        return container.getHost();
    }

    @Override
    public int port() {
        return container.getMappedPort(REDIS_PORT);
    }

    @Override
    public String description() {
        return "Testcontainers " + IMAGE + " (" + container.getContainerId() + ")";
    }

    @Override
    public boolean running() {
        return container.isRunning();
    }

    @Override
    public void close() {
        container.stop();
    }
}
