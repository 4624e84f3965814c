package io.bullpen;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The shape of queue-core's exported API: public types are composed, not split over hidden
 * superclasses; the stored form of jobs and options (the codec) is not offered; async methods
 * return {@code CompletableFuture}.
 */
class PublicApiShapeTest {
    private static final List<String> EXPORTED = List.of("io/bullpen", "io/bullpen/events", "io/bullpen/instrument");
    private static final Set<String> CODEC_METHODS = Set.of("describe", "fromDescription", "fromHash", "rawFields",
            "withAttemptsMade");

    @Test
    void noPublicTypeExtendsAPackagePrivateClass() throws Exception {
        List<String> hidden = new ArrayList<>();
        for (Class<?> type : publicTypes()) {
            Class<?> superclass = type.getSuperclass();
            if (superclass != null && !Modifier.isPublic(superclass.getModifiers())) {
                hidden.add(type.getName() + " extends " + superclass.getName());
            }
        }
        assertThat(hidden).isEmpty();
    }

    @Test
    void noPublicMethodEncodesOrDecodesTheStoredForm() throws Exception {
        List<String> codec = new ArrayList<>();
        for (Class<?> type : publicTypes()) {
            for (Method m : type.getMethods()) {
                if (m.getDeclaringClass().getName().startsWith("io.bullpen") && CODEC_METHODS.contains(m.getName())) {
                    codec.add(type.getName() + "." + m.getName());
                }
            }
        }
        assertThat(codec).isEmpty();
    }

    @Test
    void asyncMethodsReturnCompletableFuture() throws Exception {
        List<String> stages = new ArrayList<>();
        for (Class<?> type : publicTypes()) {
            for (Method m : type.getMethods()) {
                if (m.getReturnType() == CompletionStage.class) {
                    stages.add(type.getName() + "." + m.getName());
                }
            }
        }
        assertThat(stages).isEmpty();
    }

    @Test
    void theExceptionsAProcessorThrowsAreInTheApiPackage() {
        assertThat(Stream.of(UnrecoverableJobException.class, JobTimeoutException.class, RateLimitedException.class)
                .map(Class::getPackageName)).containsOnly("io.bullpen");
    }

    /** Every public type (nested ones included) of the exported packages, from queue-core's compiled classes. */
    private static List<Class<?>> publicTypes() throws IOException, URISyntaxException, ClassNotFoundException {
        Path classes = Path.of(Queue.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<Class<?>> types = new ArrayList<>();
        for (String pkg : EXPORTED) {
            try (Stream<Path> files = Files.list(classes.resolve(pkg))) {
                for (Path f : files.filter(p -> p.toString().endsWith(".class")).sorted().toList()) {
                    String name = pkg.replace('/', '.') + "." + f.getFileName().toString().replace(".class", "");
                    if (name.endsWith("package-info")) {
                        continue;
                    }
                    Class<?> type = Class.forName(name, false, Queue.class.getClassLoader());
                    if (Modifier.isPublic(type.getModifiers()) && !type.isAnonymousClass()) {
                        types.add(type);
                    }
                }
            }
        }
        assertThat(types).as("public types found").hasSizeGreaterThan(20);
        return types;
    }
}
