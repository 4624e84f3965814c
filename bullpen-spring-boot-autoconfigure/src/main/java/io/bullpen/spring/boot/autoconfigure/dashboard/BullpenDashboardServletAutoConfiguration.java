package io.bullpen.spring.boot.autoconfigure.dashboard;

import io.bullpen.client.Bullpen;
import io.bullpen.dashboard.Dashboard;
import io.bullpen.dashboard.DashboardHandler;
import io.bullpen.spring.boot.autoconfigure.BullpenAutoConfiguration;
import io.bullpen.spring.boot.autoconfigure.BullpenProperties;
import jakarta.servlet.ServletContext;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.ClassUtils;
import org.springframework.web.context.WebApplicationContext;

/**
 * The dashboard under the application's servlet web server when {@code bullpen.dashboard.path} is
 * set (and {@code bullpen.dashboard.enabled}): a {@link DashboardHandler} bean, mounted at
 * {@code <path>/*} on the main server here, or on the Actuator management server when that runs
 * on a port of its own ({@link BullpenDashboardManagementContextConfiguration}, in the
 * management context). Without the property the dashboard keeps its own port. Reads need the
 * token too, unless a Spring Security chain covers the path or {@code bullpen.dashboard.public-read}
 * ({@link DashboardReadAccess}).
 */
@AutoConfiguration(after = BullpenAutoConfiguration.class)
@ConditionalOnClass(name = {"jakarta.servlet.http.HttpServlet", "org.springframework.boot.web.servlet.ServletRegistrationBean"})
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnProperty(prefix = "bullpen.dashboard", name = "enabled", havingValue = "true")
@Conditional(BullpenDashboardServletAutoConfiguration.OnPath.class)
public class BullpenDashboardServletAutoConfiguration {
    static final String PATH = "bullpen.dashboard.path";
    private static final String ACTUATOR =
            "org.springframework.boot.actuate.autoconfigure.web.server.ManagementContextAutoConfiguration";

    /**
     * @param bullpen the client
     * @param properties the settings
     * @param environment where the serving server's address is configured
     * @param access who may read it
     * @return the dashboard's handler, its event poller stopped with the context
     */
    /**
     * @param properties the settings
     * @param environment where the serving server's context path is configured
     * @param context the application, asked for its Spring Security chains
     * @return who may read the dashboard: the token, unless Spring Security covers it or
     *     {@code bullpen.dashboard.public-read}
     */
    @Bean
    DashboardReadAccess bullpenDashboardReadAccess(BullpenProperties properties, Environment environment,
                                                   ApplicationContext context) {
        BullpenProperties.Dashboard p = properties.getDashboard();
        String servletPath = mapping(p.getPath()).replace("/*", "");
        String contextPath = trimSlash(environment.getProperty(onManagementPort(environment)
                ? "management.server.base-path" : "server.servlet.context-path", ""));
        boolean token = p.getToken() != null && !p.getToken().isBlank();
        return new DashboardReadAccess(p.isPublicRead(), token, contextPath + servletPath + "/api/queues", () -> {
            if (!SecurityFilterChains.present()) {
                return List.of();
            }
            ServletContext servletContext = context instanceof WebApplicationContext web ? web.getServletContext() : null;
            return SecurityFilterChains.matching(context, contextPath, servletPath, "/api/queues", servletContext);
        });
    }

    /**
     * @param access who may read the dashboard
     * @return decides (and logs) who may read the dashboard once the application is ready
     */
    @Bean
    ApplicationListener<ApplicationReadyEvent> bullpenDashboardReadAccessLog(DashboardReadAccess access) {
        return event -> access.tokenNeeded();
    }

    private static String trimSlash(String path) {
        String p = path == null ? "" : path.trim();
        return p.endsWith("/") ? p.substring(0, p.length() - 1) : p;
    }

    @Bean(destroyMethod = "close")
    DashboardHandler bullpenDashboardHandler(Bullpen bullpen, BullpenProperties properties, Environment environment,
                                             DashboardReadAccess access) {
        BullpenProperties.Dashboard p = properties.getDashboard();
        mapping(p.getPath());
        // The Host check follows the serving server's address: loopback-only names when it listens
        // on loopback, every host when it listens on every interface (the servlet default).
        String address = environment.getProperty(onManagementPort(environment) ? "management.server.address" : "server.address");
        InetAddress servedOn;
        try {
            servedOn = address == null || address.isBlank() ? null : InetAddress.getByName(address.trim());
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("cannot resolve the server address " + address, e);
        }
        return Dashboard.builder(bullpen.redisson()).prefix(bullpen.prefix()).token(p.getToken()).readOnly(p.isReadOnly())
                .tokenForReads(access::tokenNeeded)
                .buildHandler(servedOn);
    }

    /**
     * @param handler the dashboard
     * @param properties the settings
     * @param access who may read it
     * @return the servlet at {@code <path>/*} on the main server (not when the management server has its own port)
     */
    @Bean
    @Conditional(OnMainServer.class)
    ServletRegistrationBean<DashboardServlet> bullpenDashboardServlet(DashboardHandler handler,
                                                                      BullpenProperties properties,
                                                                      DashboardReadAccess access) {
        return registration(handler, properties, access);
    }

    static ServletRegistrationBean<DashboardServlet> registration(DashboardHandler handler, BullpenProperties properties,
                                                                  DashboardReadAccess access) {
        ServletRegistrationBean<DashboardServlet> bean = new ServletRegistrationBean<>(
                new DashboardServlet(handler, access), mapping(properties.getDashboard().getPath()));
        bean.setName("bullpenDashboard");
        bean.setAsyncSupported(true);
        bean.setLoadOnStartup(-1);
        return bean;
    }

    /** "/bullpen" or "/bullpen/" -> "/bullpen/*"; refuses what is not plain path segments. */
    static String mapping(String path) {
        String p = path == null ? "" : path.trim();
        if (p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        if (!p.matches("(/[A-Za-z0-9._~-]+)+") || p.contains("/../") || p.endsWith("/..") || p.contains("/./")) {
            throw new IllegalArgumentException(PATH + " must be a path like /bullpen (segments of letters, digits, "
                    + "'.', '_', '~', '-') but was \"" + path + "\"");
        }
        return p + "/*";
    }

    /** Whether the Actuator management server runs on a port of its own (then it serves the dashboard). */
    static boolean onManagementPort(Environment environment) {
        return ClassUtils.isPresent(ACTUATOR, BullpenDashboardServletAutoConfiguration.class.getClassLoader())
                && ManagementPort.different(environment);
    }

    /** Kept apart so the Actuator class is loaded only when Actuator is there. */
    private static final class ManagementPort {
        static boolean different(Environment environment) {
            return org.springframework.boot.actuate.autoconfigure.web.server.ManagementPortType.get(environment)
                    == org.springframework.boot.actuate.autoconfigure.web.server.ManagementPortType.DIFFERENT;
        }
    }

    /** {@code bullpen.dashboard.path} is set. */
    static final class OnPath implements Condition {
        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return context.getEnvironment().getProperty(PATH) != null;
        }
    }

    /** The main server serves the dashboard: no management server on a port of its own. */
    static final class OnMainServer implements Condition {
        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return !onManagementPort(context.getEnvironment());
        }
    }
}
