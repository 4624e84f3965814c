package io.bullpen.internal;

import io.bullpen.lua.ScriptCatalog;
import io.bullpen.lua.ScriptHeader;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Builds the fixed part of a script's ARGV by the names in its header, as {@link ScriptKeys} does
 * for KEYS: a caller sets each argument by name and the header decides its position, so Java and
 * the script's generated {@code ARG} table read the same list. A repeated tail ({@code record...})
 * is appended by the caller after {@link Named#into}. Positions are read once per script. Not API.
 */
final class ScriptArgs {

    private final ScriptCatalog catalog;
    private final Map<String, Positions> positions = new ConcurrentHashMap<>();

    ScriptArgs() {
        this(ScriptCatalog.classpath());
    }

    ScriptArgs(ScriptCatalog catalog) {
        this.catalog = catalog;
    }

    /** An empty argument list for {@code script}, to fill by name. */
    Named named(String script) {
        return new Named(positions.computeIfAbsent(script, this::positionsOf));
    }

    private Positions positionsOf(String script) {
        List<ScriptHeader.Entry> argv = catalog.get(script).header().argv();
        Map<String, Integer> byName = new HashMap<>();
        String[] names = new String[(int) argv.stream().filter(e -> !e.repeated()).count()];
        for (ScriptHeader.Entry e : argv) {
            if (!e.repeated()) {
                byName.put(e.name(), e.index() - 1);
                names[e.index() - 1] = e.name();
            }
        }
        return new Positions(script, Map.copyOf(byName), names);
    }

    private record Positions(String script, Map<String, Integer> byName, String[] names) {
    }

    /** One call's fixed arguments, set by header name. */
    static final class Named {
        private final Positions positions;
        private final Object[] values;

        private Named(Positions positions) {
            this.positions = positions;
            this.values = new Object[positions.names().length];
        }

        /**
         * Sets the argument the header names {@code name}.
         *
         * @throws IllegalArgumentException when the header declares no fixed argument of that name
         */
        Named set(String name, Object value) {
            Integer at = positions.byName().get(name);
            if (at == null) {
                throw new IllegalArgumentException("script " + positions.script() + " declares no argument named '"
                        + name + "'");
            }
            values[at] = value;
            return this;
        }

        /**
         * Appends the arguments to {@code args} in header order.
         *
         * @throws IllegalStateException when an argument was not set
         */
        List<Object> into(List<Object> args) {
            for (int i = 0; i < values.length; i++) {
                if (values[i] == null) {
                    throw new IllegalStateException("script " + positions.script() + ": argument '"
                            + positions.names()[i] + "' was not set");
                }
                args.add(values[i]);
            }
            return args;
        }
    }
}
