package io.bullpen.internal;

import io.bullpen.instrument.Instrumentation;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Calls each of a list of instrumentations, logging and ignoring one that throws. */
public final class Instrumentations {
    private static final Logger log = LoggerFactory.getLogger(Instrumentations.class);

    private Instrumentations() {
    }

    /**
     * @param all the instrumentations
     * @param name the call, for the log
     * @param call what to call on each
     */
    public static void each(List<Instrumentation> all, String name, Consumer<Instrumentation> call) {
        for (Instrumentation i : all) {
            try {
                call.accept(i);
            } catch (RuntimeException | LinkageError e) {
                log.warn("instrumentation {} threw in {}; ignored", i.getClass().getName(), name, e);
            }
        }
    }
}
