package io.bullpen.examples.spring;

import io.bullpen.examples.RedisLauncher;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.boot.context.event.ApplicationFailedEvent;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.SmartApplicationListener;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * The demo's zero-install Redis for the Spring example: when the environment names no Redis
 * ({@code spring.data.redis.url}/{@code host}, e.g. from {@code SPRING_DATA_REDIS_URL}), use the
 * one on 127.0.0.1:6379 if it answers, else start an embedded one ({@link RedisLauncher}, as the
 * demo does) and stop it after the context has closed (after Bullpen's Redisson client).
 */
final class LocalRedis implements SmartApplicationListener, ApplicationContextInitializer<ConfigurableApplicationContext> {
    private static final Logger log = LoggerFactory.getLogger(LocalRedis.class);

    private RedisLauncher launcher;

    private LocalRedis() {
    }

    /** @param app the application to give a Redis when its configuration names none */
    static void addTo(SpringApplication app) {
        LocalRedis local = new LocalRedis();
        app.addListeners(local);
        app.addInitializers(local);
    }

    @Override
    public boolean supportsEventType(Class<? extends ApplicationEvent> type) {
        return ApplicationEnvironmentPreparedEvent.class.isAssignableFrom(type)
                || ApplicationFailedEvent.class.isAssignableFrom(type);
    }

    @Override
    public void onApplicationEvent(ApplicationEvent event) {
        if (event instanceof ApplicationEnvironmentPreparedEvent prepared) {
            ConfigurableEnvironment env = prepared.getEnvironment();
            if (env.containsProperty("spring.data.redis.url") || env.containsProperty("spring.data.redis.host")) {
                return;
            }
            launcher = RedisLauncher.localOrEmbedded();
            log.info("Redis: {} ({})", launcher.url(), launcher.description());
            env.getPropertySources().addFirst(new MapPropertySource("bullpenExampleRedis",
                    Map.of("spring.data.redis.url", launcher.url())));
        } else if (event instanceof ApplicationFailedEvent) {
            stop();
        }
    }

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        // Registered before any bean, so destroyed after all of them: Redis outlives the client.
        if (launcher != null && context.getBeanFactory() instanceof DefaultListableBeanFactory factory) {
            factory.registerDisposableBean("bullpenExampleRedis", this::stop);
        }
    }

    private synchronized void stop() {
        if (launcher != null) {
            launcher.close();
            launcher = null;
        }
    }
}
