package io.bullpen.bench.peer;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a main class of this harness in another JVM, on the same class path. */
public final class ChildJvm {
    private ChildJvm() {
    }

    /**
     * @param main the class whose main method to run
     * @param timeout how long it may take
     * @param args its arguments
     * @return what it printed on stdout (its stderr goes to ours)
     * @throws IOException when it fails, exits non-zero or times out
     * @throws InterruptedException when interrupted
     */
    public static String run(Class<?> main, Duration timeout, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path")));
        command.addAll(ClientSettings.childOptions());
        command.add(main.getName());
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        process.getOutputStream().close();
        try (InputStream out = process.getInputStream()) {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IOException(main.getSimpleName() + " did not finish within " + timeout);
            }
            String printed = new String(out.readAllBytes(), StandardCharsets.UTF_8);
            if (process.exitValue() != 0) {
                throw new IOException(main.getSimpleName() + " exited with " + process.exitValue());
            }
            return printed;
        }
    }
}
