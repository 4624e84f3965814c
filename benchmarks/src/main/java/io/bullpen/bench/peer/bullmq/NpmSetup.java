package io.bullpen.bench.peer.bullmq;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Installs the BullMQ peer's packages on first use: {@code npm install} in its folder when
 * node_modules lacks the bullmq version package.json pins.
 */
final class NpmSetup {
    private static final Logger log = LoggerFactory.getLogger(NpmSetup.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private NpmSetup() {
    }

    static synchronized void ensureInstalled(Path dir) throws IOException, InterruptedException {
        String pinned = JSON.readTree(dir.resolve("package.json").toFile()).path("dependencies").path("bullmq").asText();
        Path installed = dir.resolve("node_modules/bullmq/package.json");
        if (Files.exists(installed) && pinned.equals(JSON.readTree(installed.toFile()).path("version").asText())) {
            return;
        }
        log.info("installing bullmq {} with npm in {}", pinned, dir);
        Process npm = new ProcessBuilder(List.of("npm", "install", "--no-audit", "--no-fund"))
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .start();
        npm.getOutputStream().close();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(npm.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                log.info("npm: {}", line);
            }
        }
        if (npm.waitFor() != 0) {
            throw new IOException("npm install failed in " + dir + " (exit " + npm.exitValue() + ")");
        }
        JsonNode version = JSON.readTree(installed.toFile()).path("version");
        if (!pinned.equals(version.asText())) {
            throw new IOException("npm installed bullmq " + version.asText() + ", not " + pinned);
        }
    }
}
