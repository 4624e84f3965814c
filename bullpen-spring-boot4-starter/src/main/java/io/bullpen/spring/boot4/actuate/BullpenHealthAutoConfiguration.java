package io.bullpen.spring.boot4.actuate;

import io.bullpen.spring.boot.autoconfigure.BullpenAutoConfiguration;
import io.bullpen.spring.boot.autoconfigure.BullpenHealth;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The {@code bullpen} health indicator (Boot 4.0 Actuator), when Actuator is on the class path and
 * {@code management.health.bullpen.enabled} is not false: see {@link BullpenHealth} for what it
 * reports.
 */
@AutoConfiguration(after = BullpenAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean(BullpenHealth.class)
@ConditionalOnEnabledHealthIndicator("bullpen")
public class BullpenHealthAutoConfiguration {
    /**
     * @param health the checks
     * @return the indicator, contributed as {@code bullpen}
     */
    @Bean
    @ConditionalOnMissingBean(name = "bullpenHealthIndicator")
    public HealthIndicator bullpenHealthIndicator(BullpenHealth health) {
        return () -> {
            BullpenHealth.Report report = health.check();
            Status status = switch (report.status()) {
                case UP -> Status.UP;
                case OUT_OF_SERVICE -> Status.OUT_OF_SERVICE;
                case DOWN -> Status.DOWN;
            };
            return Health.status(status).withDetails(report.details()).build();
        };
    }
}
