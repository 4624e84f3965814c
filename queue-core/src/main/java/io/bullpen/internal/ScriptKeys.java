package io.bullpen.internal;

import io.bullpen.lua.ScriptCatalog;
import io.bullpen.lua.ScriptHeader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Builds a script's KEYS from the names in its header: each name resolves through
 * {@link KeyScheme#key(String)}, unless the call binds it (a job's hash, a state the caller
 * picked). Callers never order keys by hand, so a header that adds or reorders keys needs no
 * Java change. Lists without bound names are built once per script. Not API.
 */
final class ScriptKeys {

    private final KeyScheme k;
    private final ScriptCatalog catalog;
    private final Map<String, List<Object>> fixed = new ConcurrentHashMap<>();

    ScriptKeys(KeyScheme k) {
        this(k, ScriptCatalog.classpath());
    }

    ScriptKeys(KeyScheme k, ScriptCatalog catalog) {
        this.k = k;
        this.catalog = catalog;
    }

    /** The KEYS of {@code script}, every one a queue key. */
    List<Object> of(String script) {
        return fixed.computeIfAbsent(script, name -> Collections.unmodifiableList(build(name, Map.of())));
    }

    /** The KEYS of {@code script}, with the header name {@code name} bound to {@code key}. */
    List<Object> of(String script, String name, String key) {
        return build(script, Map.of(name, key));
    }

    /** The KEYS of {@code script}, with two header names bound. */
    List<Object> of(String script, String name1, String key1, String name2, String key2) {
        return build(script, Map.of(name1, key1, name2, key2));
    }

    private List<Object> build(String script, Map<String, String> bound) {
        List<ScriptHeader.Entry> names = catalog.get(script).header().keys();
        List<Object> keys = new ArrayList<>(names.size());
        for (ScriptHeader.Entry entry : names) {
            String key = bound.get(entry.name());
            keys.add(key != null ? key : k.key(entry.name()));
        }
        for (String name : bound.keySet()) {
            if (names.stream().noneMatch(e -> e.name().equals(name))) {
                throw new IllegalArgumentException("script " + script + " declares no key named '" + name + "'");
            }
        }
        return keys;
    }
}
