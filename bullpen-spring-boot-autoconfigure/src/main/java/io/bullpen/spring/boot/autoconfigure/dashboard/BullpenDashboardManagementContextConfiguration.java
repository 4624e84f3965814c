package io.bullpen.spring.boot.autoconfigure.dashboard;

import io.bullpen.dashboard.DashboardHandler;
import io.bullpen.spring.boot.autoconfigure.BullpenProperties;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextType;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;

/**
 * The dashboard's servlet in the Actuator management context, which exists only when the
 * management server runs on a port of its own: {@code <path>/*} below
 * {@code management.server.base-path}. The {@link DashboardHandler} comes from the main context
 * ({@link BullpenDashboardServletAutoConfiguration}).
 */
@ManagementContextConfiguration(value = ManagementContextType.CHILD, proxyBeanMethods = false)
@ConditionalOnClass(name = "jakarta.servlet.http.HttpServlet")
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnBean(DashboardHandler.class)
public class BullpenDashboardManagementContextConfiguration {
    /**
     * @param handler the dashboard, from the main context
     * @param properties the settings, from the main context
     * @param access who may read it, from the main context
     * @return the servlet at {@code <path>/*} on the management server
     */
    @Bean
    ServletRegistrationBean<DashboardServlet> bullpenDashboardServlet(DashboardHandler handler,
                                                                      BullpenProperties properties,
                                                                      DashboardReadAccess access) {
        return BullpenDashboardServletAutoConfiguration.registration(handler, properties, access);
    }
}
