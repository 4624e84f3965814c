package io.bullpen.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.engine.TestEngine;

/**
 * The module's tests ran on the JUnit it declares and on no other: queue-testing must not put a
 * JUnit of its own on a user's test class path (nor a newer one in place of the user's).
 */
class JUnitOnTheClassPathTest {

    private static final Pattern JUNIT_JAR =
            Pattern.compile("junit-(jupiter|platform)(?:-[a-z]+)*-(\\d+\\.\\d+\\.\\d+\\S*)\\.jar");

    private final String jupiter = System.getProperty("compat.junit.version");

    /** 5.x pairs with platform 1.x (5.10.3 with 1.10.3); from 6.0 on both share one version. */
    private String platform() {
        return jupiter.startsWith("5.") ? "1." + jupiter.substring(2) : jupiter;
    }

    @Test
    void theLoadedJUnitClassesAreTheDeclaredVersion() {
        assertThat(jarOf(Test.class)).endsWith("junit-jupiter-api-" + jupiter + ".jar");
        assertThat(jarOf(ExtensionContext.class)).endsWith("junit-jupiter-api-" + jupiter + ".jar");
        assertThat(jarOf(TestEngine.class)).endsWith("junit-platform-engine-" + platform() + ".jar");
    }

    @Test
    void everyJUnitJarOnTheClassPathIsTheDeclaredVersion() {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> junitJars = Arrays.stream(classPath.split(File.pathSeparator))
                .map(entry -> Path.of(entry).getFileName().toString())
                .filter(name -> JUNIT_JAR.matcher(name).matches())
                .collect(Collectors.toList());

        assertThat(junitJars).as("JUnit jars on the test class path").isNotEmpty();
        assertThat(junitJars).allSatisfy(name -> {
            Matcher m = JUNIT_JAR.matcher(name);
            assertThat(m.matches()).isTrue();
            String expected = m.group(1).equals("jupiter") ? jupiter : platform();
            assertThat(m.group(2)).as(name).isEqualTo(expected);
        });
    }

    private static String jarOf(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).getFileName().toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
