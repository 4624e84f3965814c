package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

/**
 * The shape of the worker's public API: its builder is one class (no hidden superclass), offers
 * no build hooks, and no public type of the package returns a bare {@code CompletionStage}.
 */
class WorkerApiShapeTest {

    @Test
    void theBuilderIsOneClassWithoutBuildHooks() {
        assertThat(Worker.Builder.class.getSuperclass()).isEqualTo(Object.class);
        assertThat(Arrays.stream(Worker.Builder.class.getMethods()).map(Method::getName)).doesNotContain("onBuild");
    }

    @Test
    void noPublicTypeOfThePackageExtendsAPackagePrivateClassOrReturnsACompletionStage() {
        for (Class<?> type : new Class<?>[] {Worker.class, Worker.Builder.class, JobContext.class, JobProcessor.class,
                BatchProcessor.class, JobBatch.class, JobBatchOptions.class,
                WorkerListener.class}) {
            Class<?> superclass = type.getSuperclass();
            assertThat(superclass == null || Modifier.isPublic(superclass.getModifiers())).as(type.getName()).isTrue();
            assertThat(Arrays.stream(type.getMethods()).map(Method::getReturnType)).as(type.getName())
                    .doesNotContain(CompletionStage.class);
        }
    }
}
