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
    private final Map<String, Map<String, Layout>> layouts = new ConcurrentHashMap<>();

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

    /**
     * One record of {@code script}'s repeated tail, of {@code kind}, to fill by field name: the
     * layouts are the header's {@code Records:} section, which the script resolves its
     * {@code FIELD.<kind>.<field>} names from.
     *
     * @throws IllegalArgumentException when the header declares no record of that kind
     */
    Record record(String script, String kind) {
        Layout layout = layouts.computeIfAbsent(script, this::layoutsOf).get(kind);
        if (layout == null) {
            throw new IllegalArgumentException("script " + script + " declares no record kind '" + kind + "'");
        }
        return new Record(layout);
    }

    private Map<String, Layout> layoutsOf(String script) {
        Map<String, Layout> out = new HashMap<>();
        catalog.get(script).header().records().forEach((kind, fields) -> {
            Map<String, Integer> byName = new HashMap<>();
            for (int i = 0; i < fields.size(); i++) {
                byName.put(fields.get(i), i + 1);
            }
            out.put(kind, new Layout(script, kind, Map.copyOf(byName), fields.toArray(new String[0])));
        });
        return Map.copyOf(out);
    }

    private record Layout(String script, String kind, Map<String, Integer> byName, String[] names) {
    }

    /** One record: its kind, then its fields in header order, set by name. */
    static final class Record {
        private final Layout layout;
        private final String[] values;

        private Record(Layout layout) {
            this.layout = layout;
            this.values = new String[layout.names().length + 1];
            values[0] = layout.kind();
        }

        /**
         * Sets the field the header names {@code name} in this record's kind.
         *
         * @throws IllegalArgumentException when the kind has no field of that name
         */
        Record set(String name, String value) {
            Integer at = layout.byName().get(name);
            if (at == null) {
                throw new IllegalArgumentException("script " + layout.script() + ": record kind '" + layout.kind()
                        + "' has no field named '" + name + "'");
            }
            values[at] = value;
            return this;
        }

        /**
         * Appends the record (kind first) to {@code args}.
         *
         * @throws IllegalStateException when a field was not set
         */
        void into(List<Object> args) {
            for (int i = 0; i < values.length; i++) {
                if (values[i] == null) {
                    throw new IllegalStateException("script " + layout.script() + ": field '" + layout.names()[i - 1]
                            + "' of a '" + layout.kind() + "' record was not set");
                }
                args.add(values[i]);
            }
        }
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
