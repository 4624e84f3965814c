package io.bullpen.internal;

import io.bullpen.lua.Script;
import io.bullpen.lua.ScriptCatalog;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.time.Duration;
import org.redisson.Redisson;
import org.redisson.api.BatchOptions;
import org.redisson.api.RBatch;
import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.api.options.ObjectParams;
import org.redisson.api.options.OptionalOptions;
import org.redisson.client.RedisConnectionException;
import org.redisson.client.RedisNoScriptException;
import org.redisson.client.RedisRetryException;
import org.redisson.client.codec.StringCodec;
import org.redisson.client.protocol.RedisCommand;
import org.redisson.client.protocol.RedisStrictCommand;
import org.redisson.command.CommandAsyncExecutor;
import org.redisson.config.NameMapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs catalog scripts with EVALSHA, loading a script and retrying once when Redis answers
 * NOSCRIPT (after a restart or failover the script cache is empty), whatever the user's
 * {@code useScriptCache} setting. The scripts of the hot path ({@link #AS_FUNCTIONS}) run as
 * Redis functions ({@code FCALL}) where the server has them (Redis 7+): a script run by
 * EVALSHA makes every function it includes again on every call, a quarter of a worker call's
 * cost in Redis, while a function library makes them once, when it loads. A client's first call
 * of a script starts loading its library on every master and goes by EVALSHA, as do its calls
 * until the load is done; a master that later answers that the function is not there (restarted,
 * {@code FUNCTION FLUSH}) gets it again before the call is made once more; a server without {@code FCALL} (Redis 6.2) or a user whose ACL
 * forbids it or {@code FUNCTION LOAD} gets EVALSHA from then on. Redisson's own retries are off:
 * Redisson treats EVALSHA as idempotent and would re-run a state-changing script that merely
 * timed out. Not API.
 */
final class ScriptRunner {
    private static final Logger log = LoggerFactory.getLogger(ScriptRunner.class);
    private static final int MAX_UNSENT_RETRIES = 5;
    /**
     * The scripts run as functions, with their flags: the add (refused up front while Redis is out
     * of memory, as EVALSHA's first write was) and the worker's take and finish ({@code allow-oom}:
     * a worker still records its jobs while Redis is full, which is how memory gets freed, as
     * EVALSHA's did, whose first write was a delete).
     */
    static final Map<String, String[]> AS_FUNCTIONS = Map.of("addCoalesced", new String[0], "addJob", new String[0],
            "moveToActive", new String[] {"allow-oom"}, "moveToFinished", new String[] {"allow-oom"});
    private static final RedisStrictCommand<String> FUNCTION_LOAD = new RedisStrictCommand<>("FUNCTION", "LOAD");
    private final RedissonClient redisson;
    private final RScript script;
    private final ScriptCatalog catalog;
    /**
     * Redisson's executor behind {@link #script} (same options), used to send EVALSHA with the
     * arguments already as bytes. RScript encodes every argument through the codec and a
     * live-object reference lookup (a reflective annotation check per argument): with ~20
     * arguments per finish that was a visible share of the worker's CPU per job. Null when the
     * client is not Redisson's own implementation: then calls go through {@link #script}.
     */
    private final CommandAsyncExecutor executor;
    private final Map<RScript.ReturnType, RedisCommand<?>> evalSha = new EnumMap<>(RScript.ReturnType.class);
    private final Map<RScript.ReturnType, RedisCommand<?>> fcall = new EnumMap<>(RScript.ReturnType.class);
    /**
     * Calls go as functions: true until the server shows it cannot (no FCALL, or the ACL forbids
     * FCALL or FUNCTION LOAD); then EVALSHA for the rest of this client's life.
     */
    private volatile boolean functions;
    /** Per Redisson client (weakly held), its runners' {@link #loadedOnMasters}. */
    private static final Map<RedissonClient, Map<String, CompletableFuture<Void>>> LOADED_BY_CLIENT =
            java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());
    /**
     * Per script, the client's load of its library on every master: FCALL only once it is done,
     * so no call meets a missing function (an error reply) on a server that has simply not seen
     * this version yet, and no call waits for a load; shared by every runner of the client (a
     * queue, a worker), so a client loads each library once.
     */
    private final Map<String, CompletableFuture<Void>> loadedOnMasters;
    /** The client maps no key names (Redisson's default): keys are sent as given, without a copy. */
    private final boolean directNames;

    ScriptRunner(RedissonClient redisson) {
        this.redisson = redisson;
        OptionalOptions options = OptionalOptions.defaults().codec(StringCodec.INSTANCE).retryAttempts(0);
        this.script = redisson.getScript(options);
        this.executor = redisson instanceof Redisson r && options instanceof ObjectParams params
                ? r.getCommandExecutor().copy(params)
                : null;
        for (RScript.ReturnType type : RScript.ReturnType.values()) {
            evalSha.put(type, new RedisCommand<>(type.getCommand(), "EVALSHA"));
            fcall.put(type, new RedisCommand<>(type.getCommand(), "FCALL"));
        }
        this.functions = executor != null;
        this.loadedOnMasters = LOADED_BY_CLIENT.computeIfAbsent(redisson, client -> new java.util.concurrent.ConcurrentHashMap<>());
        this.catalog = ScriptCatalog.classpath();
        this.directNames = executor != null && executor.getServiceManager().getNameMapper().getClass() == NameMapper.direct().getClass();
    }

    /**
     * Runs a state-changing script followed by WAIT on the same connection (a Redisson batch with
     * {@code sync}): the call completes once {@code replicas} replicas acknowledged the script's
     * writes, and fails with an {@code IllegalStateException} naming how many did when fewer
     * acknowledged within {@code timeout}. Never retried once sent, like {@link #run}.
     */
    <R> CompletionStage<R> runReplicated(String name, RScript.ReturnType type, List<Object> keys, int replicas,
                                         Duration timeout, Object... args) {
        Script s = script(name, keys);
        return withScriptLoaded(s, keys, () -> this.<R>replicatedOnce(s, type, keys, replicas, timeout, args));
    }

    @SuppressWarnings("unchecked")
    private <R> CompletionStage<R> replicatedOnce(Script s, RScript.ReturnType type, List<Object> keys, int replicas,
                                                  Duration timeout, Object[] args) {
        RBatch batch = redisson.createBatch(BatchOptions.defaults().sync(replicas, timeout).retryAttempts(0));
        batch.getScript(StringCodec.INSTANCE).evalShaAsync((String) keys.get(0), RScript.Mode.READ_WRITE, s.sha1(), type,
                keys, args);
        return batch.executeAsync().thenApply(result -> {
            // Redisson checks the count itself only for some topologies: check it here too.
            if (result.getSyncedSlaves() < replicas) {
                throw new IllegalStateException("only " + result.getSyncedSlaves() + " of " + replicas
                        + " replicas acknowledged the write");
            }
            return (R) result.getResponses().get(0);
        });
    }

    /**
     * Runs a catalog script on the master that owns its keys' slot, whatever the client's
     * ReadMode: a replica lags its master, and a NOSCRIPT there cannot be repaired (SCRIPT LOAD
     * is routed to the master).
     *
     * @param name the script's name in the catalog
     * @param type the expected reply shape
     * @param keys KEYS in header order (the first routes the call in a cluster)
     * @param args ARGV in header order
     */
    <R> CompletionStage<R> run(String name, RScript.ReturnType type, List<Object> keys, Object... args) {
        Script s = script(name, keys);
        return attempt(s, type, keys, args, 0);
    }

    private Script script(String name, List<Object> keys) {
        Script s = catalog.get(name);
        if (keys.size() != s.keyCount()) {
            throw new IllegalStateException("script " + name + " declares " + s.keyCount() + " keys but got " + keys.size());
        }
        return s;
    }

    /**
     * Retries only a call that never reached Redis (the connection was closed before the write,
     * or could not be opened): such a call cannot have run, so sending it again is safe. A call
     * that was sent and then failed is never repeated here. The returned future is completed
     * straight from Redisson's: a successful call costs one callback on the I/O thread, not a
     * chain of stages.
     */
    private <R> CompletionStage<R> attempt(Script s, RScript.ReturnType type, List<Object> keys, Object[] args, int retry) {
        if (!functions || !AS_FUNCTIONS.containsKey(s.name())) {
            return viaEvalSha(s, type, keys, args, retry);
        }
        CompletableFuture<Void> loaded = loadOnMasters(s);
        if (loaded.isDone() && !loaded.isCompletedExceptionally()) {
            return viaFcall(s, type, keys, args, retry);
        }
        // The library is on its way (or Redis refused it a moment ago): this call goes by EVALSHA,
        // without waiting for the load or depending on it.
        return viaEvalSha(s, type, keys, args, retry);
    }

    /**
     * {@code FUNCTION LOAD REPLACE} of the script's library on every master, started once per
     * client (see {@link #loadedOnMasters}) and never waited for by a call. A load Redis refuses
     * is forgotten after a second (out of memory, say), so a later call tries again; a server or
     * user without functions switches the client to EVALSHA.
     */
    private CompletableFuture<Void> loadOnMasters(Script s) {
        CompletableFuture<Void> loaded = loadedOnMasters.get(s.name());
        if (loaded != null) {
            return loaded;
        }
        CompletableFuture<Void> mine = new CompletableFuture<>();
        loaded = loadedOnMasters.putIfAbsent(s.name(), mine);
        if (loaded != null) {
            return loaded;
        }
        executor.writeAllVoidAsync(FUNCTION_LOAD, "REPLACE", s.functionLibrary(AS_FUNCTIONS.get(s.name())))
                .whenComplete((done, error) -> {
                    if (error == null) {
                        mine.complete(null);
                        return;
                    }
                    mine.completeExceptionally(error);
                    if (noFunctions(error)) {
                        useEvalSha(error);
                    } else {
                        log.debug("could not load the function library of script {}: {}", s.name(), firstLine(error));
                    }
                    CompletableFuture.delayedExecutor(1, TimeUnit.SECONDS, Completions.executor())
                            .execute(() -> loadedOnMasters.remove(s.name(), mine));
                });
        return mine;
    }

    /** FCALL; on a missing function (this master restarted or was flushed) loads it there and calls once more. */
    private <R> CompletionStage<R> viaFcall(Script s, RScript.ReturnType type, List<Object> keys, Object[] args, int retry) {
        CompletableFuture<R> result = new CompletableFuture<>();
        this.<R>fcall(s, type, keys, args).whenComplete((value, error) -> {
            if (error == null) {
                result.complete(value);
            } else if (noFunctions(error)) {
                // The call did not run: EVALSHA from now on.
                useEvalSha(error);
                this.<R>viaEvalSha(s, type, keys, args, retry).whenComplete((again, failure) -> settle(result, again,
                        failure, s, type, keys, args, retry));
            } else if (isFunctionMissing(error)) {
                // The call did not run: load the library on the keys' master and call once more. A
                // library Redis will not load now (out of memory: FUNCTION LOAD is refused then,
                // SCRIPT LOAD is not) leaves this call to EVALSHA, so a worker still records its
                // jobs; a server or user without functions, every call.
                loadLibrary(s, keys).whenComplete((loaded, loadError) -> {
                    if (loadError != null) {
                        if (noFunctions(loadError)) {
                            useEvalSha(loadError);
                        } else {
                            log.debug("could not load the function library of script {}: {}", s.name(),
                                    firstLine(loadError));
                        }
                        this.<R>viaEvalSha(s, type, keys, args, retry).whenComplete((again, failure) -> settle(result,
                                again, failure, s, type, keys, args, retry));
                    } else {
                        this.<R>fcall(s, type, keys, args).whenComplete((again, failure) -> settle(result, again,
                                failure, s, type, keys, args, retry));
                    }
                });
            } else {
                settle(result, null, error, s, type, keys, args, retry);
            }
        });
        return result;
    }

    /** EVALSHA, loading the script and calling once more on NOSCRIPT. */
    private <R> CompletionStage<R> viaEvalSha(Script s, RScript.ReturnType type, List<Object> keys, Object[] args,
                                              int retry) {
        CompletableFuture<R> result = new CompletableFuture<>();
        this.<R>evalSha(s, type, keys, args).whenComplete((value, error) -> {
            if (error == null) {
                result.complete(value);
            } else if (isNoScript(error)) {
                // The script did not run: load it on the keys' master and make the call once more.
                script.scriptLoadAsync((String) keys.get(0), s.source())
                        .thenCompose(sha -> this.<R>evalSha(s, type, keys, args))
                        .whenComplete((again, failure) -> settle(result, again, failure, s, type, keys, args, retry));
            } else {
                settle(result, null, error, s, type, keys, args, retry);
            }
        });
        return result;
    }

    private <R> void settle(CompletableFuture<R> result, R value, Throwable error, Script s, RScript.ReturnType type,
                            List<Object> keys, Object[] args, int retry) {
        if (error == null) {
            result.complete(value);
            return;
        }
        Throwable cause = unwrap(error);
        if (retry < MAX_UNSENT_RETRIES && neverSent(cause)) {
            Executor later = CompletableFuture.delayedExecutor(100L << retry, TimeUnit.MILLISECONDS, Completions.executor());
            later.execute(() -> this.<R>attempt(s, type, keys, args, retry + 1).whenComplete((again, failure) -> {
                if (failure == null) {
                    result.complete(again);
                } else {
                    result.completeExceptionally(unwrap(failure));
                }
            }));
            return;
        }
        result.completeExceptionally(cause);
    }

    /**
     * EVALSHA on the master of the first key's slot, as {@link RScript#evalShaAsync} sends it (key
     * names through the client's NameMapper, arguments as UTF-8 strings), without its per-argument
     * encoding. Every part of the command goes as bytes, in one array, through Redisson's plain
     * write: its eval path copies the keys and arguments into a list and back into an array, and
     * its encoder gives each String part (the SHA-1, the key count, each key) a pooled buffer of
     * its own on the I/O thread; bytes it only wraps. The keys of the last call are kept encoded.
     */
    @SuppressWarnings("unchecked")
    private <R> CompletionStage<R> evalSha(Script s, RScript.ReturnType type, List<Object> keys, Object[] args) {
        if (executor == null) {
            return script.evalShaAsync((String) keys.get(0), RScript.Mode.READ_WRITE, s.sha1(), type, keys, args);
        }
        EncodedKeys encoded = encoded(keys);
        return executor.writeAsync(encoded.route, StringCodec.INSTANCE, (RedisCommand<R>) evalSha.get(type),
                params(s.sha1(), encoded, args));
    }

    /** The keys as sent, encoded once per key list (the last list's encoding is kept). */
    private EncodedKeys encoded(List<Object> keys) {
        EncodedKeys encoded = lastKeys;
        if (encoded == null || encoded.keys != keys) {
            encoded = encode(keys);
            lastKeys = encoded;
        }
        return encoded;
    }

    /** A script call's parts after the command name: what to call (SHA-1 or function), numkeys, keys, args. */
    private static Object[] params(String callee, EncodedKeys keys, Object[] args) {
        byte[][] keyBytes = keys.bytes;
        Object[] params = new Object[2 + keyBytes.length + args.length];
        params[0] = callee.getBytes(StandardCharsets.US_ASCII);
        params[1] = Integer.toString(keyBytes.length).getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(keyBytes, 0, params, 2, keyBytes.length);
        for (int i = 0, at = 2 + keyBytes.length; i < args.length; i++, at++) {
            params[at] = args[i] instanceof byte[] b ? b : args[i].toString().getBytes(StandardCharsets.UTF_8);
        }
        return params;
    }

    /** FCALL of the script's function, sent as {@link #evalSha} sends EVALSHA (the function's name for the SHA-1). */
    @SuppressWarnings("unchecked")
    private <R> CompletionStage<R> fcall(Script s, RScript.ReturnType type, List<Object> keys, Object[] args) {
        EncodedKeys encoded = encoded(keys);
        return executor.writeAsync(encoded.route, StringCodec.INSTANCE, (RedisCommand<R>) fcall.get(type),
                params(s.functionName(), encoded, args));
    }

    /** {@code FUNCTION LOAD REPLACE} of the script's library on the master of the keys' slot. */
    private CompletionStage<String> loadLibrary(Script s, List<Object> keys) {
        return executor.writeAsync(encoded(keys).route, StringCodec.INSTANCE, FUNCTION_LOAD, "REPLACE",
                s.functionLibrary(AS_FUNCTIONS.get(s.name())));
    }

    private void useEvalSha(Throwable why) {
        if (functions) {
            functions = false;
            log.info("Redis runs no functions for this client ({}): Bullpen's scripts run with EVALSHA", firstLine(why));
        }
    }

    /** An error's message up to Redisson's command dump (which holds a library's whole source). */
    private static String firstLine(Throwable error) {
        String m = String.valueOf(unwrap(error).getMessage());
        int cut = m.indexOf(". channel:");
        return cut < 0 ? m : m.substring(0, cut);
    }

    /** No FCALL (Redis before 7), or this user may not run FCALL or FUNCTION LOAD (ACL). */
    private static boolean noFunctions(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            String m = String.valueOf(t.getMessage());
            if (m.contains("NOPERM") || m.contains("unknown command") || m.contains("unknown subcommand")) {
                return true;
            }
        }
        return false;
    }

    /** The server has no such function (never loaded there, restarted, or flushed). */
    private static boolean isFunctionMissing(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (String.valueOf(t.getMessage()).contains("Function not found")) {
                return true;
            }
        }
        return false;
    }

    /** A list of keys (compared by identity: the fixed key lists are made once per script) as sent. */
    private record EncodedKeys(List<Object> keys, String route, byte[][] bytes) {
    }

    private volatile EncodedKeys lastKeys;

    private EncodedKeys encode(List<Object> keys) {
        NameMapper names = directNames ? null : executor.getServiceManager().getNameMapper();
        byte[][] bytes = new byte[keys.size()][];
        String route = null;
        for (int i = 0; i < bytes.length; i++) {
            String key = names == null ? (String) keys.get(i) : names.map((String) keys.get(i));
            if (i == 0) {
                route = key;
            }
            bytes[i] = key.getBytes(StandardCharsets.UTF_8);
        }
        return new EncodedKeys(keys, route, bytes);
    }

    /**
     * Not written (WriteRedisConnectionException), no connection (RedisConnectionException), or
     * rejected by Redis before running (LOADING after a restart, BUSY, TRYAGAIN, CLUSTERDOWN,
     * ...: RedisRetryException). A reconnect while the call was pending may have run it: no retry.
     */
    private static boolean neverSent(Throwable error) {
        return error instanceof RedisConnectionException || error instanceof RedisRetryException;
    }

    /**
     * Makes a call by SHA-1; on NOSCRIPT (a cache emptied by a restart or failover: the script
     * did not run) loads the script on the keys' master and makes the call once more.
     */
    private <R> CompletionStage<R> withScriptLoaded(Script s, List<Object> keys, Supplier<CompletionStage<R>> call) {
        return call.get().handle((result, error) -> {
            if (error == null) {
                return CompletableFuture.completedFuture(result);
            }
            if (!isNoScript(error)) {
                return CompletableFuture.<R>failedFuture(unwrap(error));
            }
            return script.scriptLoadAsync((String) keys.get(0), s.source())
                    .thenCompose(sha -> call.get())
                    .toCompletableFuture();
        }).thenCompose(stage -> stage);
    }

    private static boolean isNoScript(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof RedisNoScriptException || String.valueOf(t.getMessage()).startsWith("NOSCRIPT")) {
                return true;
            }
        }
        return false;
    }

    static Throwable unwrap(Throwable error) {
        Throwable t = error;
        while (t instanceof CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
