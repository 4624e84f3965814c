package io.bullpen.spring.boot.test;

import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.spring.boot.test.app.DemoApplication;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;

/**
 * The dashboard mounted at {@code /bullpen} of an application with Spring Security (a real Tomcat):
 * a SecurityFilterChain that matches the dashboard's path decides who reads it (a permitAll
 * included), one that does not leaves the reads to the token; actions always need the token.
 * The chains match with {@code PathPatternRequestMatcher} (the application's path), as the docs
 * show: the dashboard is a servlet of its own, which Spring Security 6's default MVC matchers
 * of {@code securityMatcher(String)} do not see (neither does the dashboard's check then).
 * The configurations enable web security themselves: Boot 4 auto-configures it only with its
 * spring-boot-security module. Each Boot line's module subclasses it.
 */
@BullpenTest
public abstract class DashboardSecurityTests {
    protected static final String TOKEN = "a-long-enough-test-token";
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** The dashboard open to everyone through Spring Security, as the docs show it. */
    @Configuration(proxyBeanMethods = false)
    @EnableWebSecurity
    static class PermitAll {
        @Bean
        SecurityFilterChain dashboard(HttpSecurity http) throws Exception {
            return http.securityMatcher(PathPatternRequestMatcher.withDefaults().matcher("/bullpen/**"))
                    .authorizeHttpRequests(a -> a.anyRequest().permitAll())
                    // Actions carry the token in a custom header: a cross-site form cannot send one.
                    .csrf(csrf -> csrf.disable())
                    .build();
        }
    }

    /** The dashboard for the role OPS, with HTTP Basic, as the docs show it. */
    @Configuration(proxyBeanMethods = false)
    @EnableWebSecurity
    static class OpsOnly {
        @Bean
        SecurityFilterChain dashboard(HttpSecurity http) throws Exception {
            return http.securityMatcher(PathPatternRequestMatcher.withDefaults().matcher("/bullpen/**"))
                    .authorizeHttpRequests(a -> a.anyRequest().hasRole("OPS"))
                    .httpBasic(Customizer.withDefaults())
                    .csrf(csrf -> csrf.disable())
                    .build();
        }

        @Bean
        UserDetailsService users() {
            return new InMemoryUserDetailsManager(User.withUsername("ops").password("{noop}ops-password").roles("OPS").build());
        }
    }

    /** A chain for other paths only: the dashboard's reads stay with the token. */
    @Configuration(proxyBeanMethods = false)
    @EnableWebSecurity
    static class OtherPathsOnly {
        @Bean
        SecurityFilterChain admin(HttpSecurity http) throws Exception {
            return http.securityMatcher(PathPatternRequestMatcher.withDefaults().matcher("/admin/**"))
                    .authorizeHttpRequests(a -> a.anyRequest().authenticated())
                    .httpBasic(Customizer.withDefaults())
                    .build();
        }
    }

    @Test
    void aPermitAllChainOverTheDashboardLeavesItsReadsOpenButActionsNeedTheToken(BullpenTestContext ctx) throws Exception {
        ctx.redis().assumeNotCluster("spring.data.redis.host/port name one server");
        try (ConfigurableApplicationContext app = start(ctx, PermitAll.class)) {
            String base = base(app);
            HttpResponse<String> queues = send(get(base + "/api/queues"));
            assertThat(queues.statusCode()).isEqualTo(200);
            assertThat(queues.body()).contains("\"name\":\"reports\"");
            assertThat(send(post(base + "/api/queues/reports/pause")).statusCode()).isEqualTo(401);
            assertThat(send(post(base + "/api/queues/reports/pause").header("X-Bullpen-Token", TOKEN)).statusCode())
                    .isEqualTo(200);
        }
    }

    @Test
    void aChainThatAuthenticatesDecidesWhoReads(BullpenTestContext ctx) throws Exception {
        ctx.redis().assumeNotCluster("spring.data.redis.host/port name one server");
        try (ConfigurableApplicationContext app = start(ctx, OpsOnly.class)) {
            String base = base(app);
            assertThat(send(get(base + "/api/queues")).statusCode()).isEqualTo(401);
            assertThat(send(get(base + "/api/queues").header("X-Bullpen-Token", TOKEN)).statusCode())
                    .as("the dashboard's token is no login").isEqualTo(401);
            String basic = "Basic " + Base64.getEncoder().encodeToString("ops:ops-password".getBytes(StandardCharsets.UTF_8));
            HttpResponse<String> queues = send(get(base + "/api/queues").header("Authorization", basic));
            assertThat(queues.statusCode()).isEqualTo(200);
            assertThat(queues.body()).contains("\"name\":\"reports\"");
            assertThat(send(post(base + "/api/queues/reports/pause").header("Authorization", basic)).statusCode())
                    .as("actions need the token as well").isEqualTo(401);
        }
    }

    @Test
    void aChainForOtherPathsLeavesTheReadsToTheToken(BullpenTestContext ctx) throws Exception {
        ctx.redis().assumeNotCluster("spring.data.redis.host/port name one server");
        try (ConfigurableApplicationContext app = start(ctx, OtherPathsOnly.class)) {
            String base = base(app);
            assertThat(send(get(base + "/api/queues")).statusCode()).isEqualTo(401);
            assertThat(send(get(base + "/api/queues").header("X-Bullpen-Token", TOKEN)).statusCode()).isEqualTo(200);
        }
    }

    protected static String base(ConfigurableApplicationContext app) {
        return "http://localhost:" + app.getEnvironment().getProperty("local.server.port") + "/bullpen";
    }

    protected HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    protected static HttpRequest.Builder get(String url) {
        return HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).GET();
    }

    private static HttpRequest.Builder post(String url) {
        return HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.noBody());
    }

    protected static ConfigurableApplicationContext start(BullpenTestContext ctx, Class<?> security, String... more) {
        SpringApplicationBuilder builder = security == null ? new SpringApplicationBuilder(DemoApplication.class)
                : new SpringApplicationBuilder(DemoApplication.class, security);
        return builder.web(WebApplicationType.SERVLET)
                .properties("spring.data.redis.host=" + ctx.redis().host(), "spring.data.redis.port=" + ctx.redis().port(),
                        "server.port=0", "bullpen.dashboard.enabled=true", "bullpen.dashboard.path=/bullpen",
                        "bullpen.dashboard.token=" + TOKEN)
                .properties(more)
                .run();
    }
}
