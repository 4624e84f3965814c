package io.bullpen.internal;

import io.bullpen.BullpenException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/** Blocking waits on async results that rethrow the original exception. Not API. */
public final class Futures {
    private Futures() {
    }

    /** Waits for the stage and returns its result, rethrowing its failure unwrapped. */
    public static <R> R join(CompletionStage<R> stage) {
        try {
            return stage.toCompletableFuture().join();
        } catch (CompletionException e) {
            Throwable cause = ScriptRunner.unwrap(e);
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new BullpenException(String.valueOf(cause.getMessage()), cause);
        }
    }
}
