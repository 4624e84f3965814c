package io.bullpen.bench.peer.bullpen;

import io.bullpen.worker.Worker;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * {@code Worker.Builder.takeAhead(int)}, reached reflectively: the harness compiles and
 * runs against a Bullpen with or without it, and reports "n/a" where it is missing rather than a
 * figure for a setting that was never applied.
 */
final class TakeAhead {
    /**
     * {@code -Dbench.takeAhead=N}: the workers of the driver's {@code process} (processing, cost, the
     * warm-up) and of a spread pass at its default get {@code takeAhead(N)}.
     */
    static final String PROPERTY = "bench.takeAhead";
    private static final Method METHOD = find();

    private TakeAhead() {
    }

    private static Method find() {
        try {
            return Worker.Builder.class.getMethod("takeAhead", int.class);
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    /** @return true when this Bullpen's worker builder has {@code takeAhead(int)} */
    static boolean available() {
        return METHOD != null;
    }

    /** @return the take-ahead {@link #PROPERTY} asks for, or null for the worker's default */
    static Integer fromProperty() {
        return Integer.getInteger(PROPERTY);
    }

    /**
     * @param builder a worker builder
     * @param max the take-ahead, or null to leave the builder's default
     * @throws UnsupportedOperationException when {@code max} is set but the builder has no such setting
     */
    static void apply(Worker.Builder<?, ?> builder, Integer max) {
        if (max == null) {
            return;
        }
        if (METHOD == null) {
            throw new UnsupportedOperationException("this Bullpen's Worker.Builder has no takeAhead(int)");
        }
        try {
            METHOD.invoke(builder, max);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot call Worker.Builder.takeAhead", e);
        }
    }
}
