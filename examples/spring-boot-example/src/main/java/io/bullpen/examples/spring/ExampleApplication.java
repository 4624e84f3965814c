package io.bullpen.examples.spring;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A Spring Boot application on {@code bullpen-spring-boot-starter}: orders placed over REST are
 * packed by a {@code @BullpenWorker} method ({@link OrderWorkers}), a {@code @BullpenScheduler}
 * writes a stock report every 30 s, the dashboard listens on its own port and Actuator shows the
 * {@code bullpen} health and the {@code bullpen.*} meters.
 *
 * <p>Run it with {@code java -jar examples/spring-boot-example/target/bullpen-spring-boot-example.jar}.
 * Without {@code spring.data.redis.url} or {@code spring.data.redis.host} it uses the Redis on
 * 127.0.0.1:6379 when one answers, else an embedded Redis it starts and stops itself
 * ({@link LocalRedis}).
 */
@SpringBootApplication
public class ExampleApplication {
    /**
     * Starts the application.
     *
     * @param args Spring Boot's arguments, e.g. {@code --server.port=9090}
     */
    public static void main(String[] args) {
        SpringApplication app = new SpringApplication(ExampleApplication.class);
        LocalRedis.addTo(app);
        app.run(args);
    }
}
