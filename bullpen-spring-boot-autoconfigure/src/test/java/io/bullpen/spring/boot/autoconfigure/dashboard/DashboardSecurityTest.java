package io.bullpen.spring.boot.autoconfigure.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.spring.boot.test.DashboardSecurityTests;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The shared Spring Security test ({@link DashboardSecurityTests}) on the Boot 3.5 line (Spring
 * Security 6.5), plus Boot's own default chain, which this line auto-configures with Spring
 * Security on the class path.
 */
@BullpenTest
class DashboardSecurityTest extends DashboardSecurityTests {
    @Test
    void springBootsDefaultChainCoversTheDashboard(BullpenTestContext ctx) throws Exception {
        ctx.redis().assumeNotCluster("spring.data.redis.host/port name one server");
        try (ConfigurableApplicationContext app = start(ctx, null, "spring.security.user.name=admin",
                "spring.security.user.password=admin-password")) {
            String base = base(app);
            assertThat(send(get(base + "/api/queues").header("X-Bullpen-Token", TOKEN)).statusCode()).isEqualTo(401);
            String basic = "Basic " + Base64.getEncoder().encodeToString("admin:admin-password".getBytes(StandardCharsets.UTF_8));
            assertThat(send(get(base + "/api/queues").header("Authorization", basic)).statusCode()).isEqualTo(200);
        }
    }
}
