package io.bullpen.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The configuration processor's metadata (IDE completion) is in the jar and lists the bullpen.* properties. */
class ConfigurationMetadataTest {
    @Test
    void metadataListsTheProperties() throws IOException {
        String json;
        try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).as("META-INF/spring-configuration-metadata.json").isNotNull();
            json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(json).contains("\"bullpen.prefix\"", "\"bullpen.worker.enabled\"", "\"bullpen.worker.shutdown-timeout\"",
                "\"bullpen.queues\"", "\"bullpen.dashboard.enabled\"", "\"bullpen.dashboard.port\"",
                "\"bullpen.dashboard.bind-address\"", "\"bullpen.dashboard.path\"", "\"bullpen.dashboard.token\"", "\"bullpen.dashboard.read-only\"",
                "\"bullpen.dashboard.public-read\"", "\"bullpen.config-owner\"", "\"bullpen.remove-undeclared\"",
                "\"bullpen.metrics.enabled\"", "\"bullpen.tracing.enabled\"");
        // Descriptions come from the fields' Javadoc.
        assertThat(json).contains("How long shutdown waits for running jobs");
    }
}
