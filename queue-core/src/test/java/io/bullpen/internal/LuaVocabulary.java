package io.bullpen.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The names the Lua scripts use, read from their source for {@link LuaVocabularyTest}: the
 * fields named in hash commands (with the hash each one touches), the key suffixes in headers
 * and in {@code base .. "suffix"} expressions, and the states the state-answering scripts return.
 *
 * <p>A small parser, not a Lua interpreter: comments are dropped, string literals kept; a hash
 * command's arguments are split at top-level commas. A field argument is a literal
 * ({@code "atm"}), a literal prefix ({@code "mm:" .. kind}), a local assigned one of those, or
 * {@code unpack(t)} of a table built in the same file from a constructor and
 * {@code t[#t + 1] = ...} appends. Anything else is reported as a field named {@code ?<expr>},
 * which no table declares: a script that hides a field name from this reader fails the test
 * rather than slipping through. The hash is told by its key: {@code KEYS[n]} by the pattern
 * in the header, any other expression by its spelling (groupmeta/stateKey, meta, scheduler/sKey, job).
 */
final class LuaVocabulary {

    /** The hashes whose fields Java declares. */
    enum HashKind { JOB, META, SCHEDULER, GROUP }

    /** A field named in a hash command; {@code prefix} when the name is the start of a built name. */
    record FieldUse(String file, int line, HashKind kind, String name, boolean prefix) {
        @Override
        public String toString() {
            return file + ":" + line + " " + kind + " \"" + name + "\"" + (prefix ? " .. …" : "");
        }
    }

    /** A key suffix or a state label found in a script. */
    record NameUse(String file, int line, String name) {
        @Override
        public String toString() {
            return file + ":" + line + " \"" + name + "\"";
        }
    }

    private static final Set<String> HASH_COMMANDS = Set.of("HSET", "HSETNX", "HGET", "HMGET", "HINCRBY", "HDEL",
            "HEXISTS", "HGETALL");
    /** The scripts whose string returns are job states. */
    private static final Set<String> STATE_ANSWERING = Set.of("getState.lua", "includes/pushReady.lua",
            "moveToFinished.lua");
    private static final Pattern CALL = Pattern.compile("redis\\.call\\s*\\(");
    private static final Pattern STRING = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"|'((?:[^'\\\\]|\\\\.)*)'");
    private static final Pattern KEY_PATTERN = Pattern.compile("<prefix>:\\{<queue>\\}:([^\\s),;]*)");
    private static final Pattern HEADER_KEY = Pattern.compile("(?m)^\\s+(\\d+)\\s.*?<prefix>:\\{<queue>\\}:(\\S*)");
    private static final Pattern BASE_SUFFIX = Pattern.compile("\\bbase\\s*\\.\\.\\s*\"([^\"]*)\"");
    private static final Pattern STATE_RETURN = Pattern.compile("\\breturn\\s+\"(\\w+)\"");

    private final List<FieldUse> fieldUses = new ArrayList<>();
    private final List<NameUse> keySuffixes = new ArrayList<>();
    private final List<NameUse> stateAnswers = new ArrayList<>();
    private final Set<String> stringLiterals = new TreeSet<>();
    private final List<String> problems = new ArrayList<>();

    private LuaVocabulary() {
    }

    /** @return the names used by every {@code .lua} file under {@code dir} */
    static LuaVocabulary read(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new IllegalStateException("no Lua scripts at " + dir.toAbsolutePath());
        }
        LuaVocabulary v = new LuaVocabulary();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.filter(f -> f.toString().endsWith(".lua")).sorted().toList()) {
                v.scan(dir.relativize(p).toString().replace('\\', '/'), Files.readString(p));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return v;
    }

    List<FieldUse> fieldUses() {
        return fieldUses;
    }

    List<NameUse> keySuffixes() {
        return keySuffixes;
    }

    List<NameUse> stateAnswers() {
        return stateAnswers;
    }

    /** @return hash commands whose hash this reader could not tell */
    List<String> problems() {
        return problems;
    }

    /** @return the text of every string literal in the scripts' code (comments excluded) */
    Set<String> stringLiterals() {
        return stringLiterals;
    }

    private void scan(String file, String text) {
        Map<Integer, String> headerKeys = new TreeMap<>();
        Matcher header = Pattern.compile("\\A\\s*--\\[\\[([\\s\\S]*?)]]").matcher(text);
        if (header.find()) {
            Matcher keys = KEY_PATTERN.matcher(header.group(1));
            while (keys.find()) {
                keySuffixes.add(new NameUse(file, line(text, header.start(1) + keys.start()), keys.group(1)));
            }
            String keysSection = header.group(1).replaceFirst("(?s)^.*?\\bKEYS:", "").replaceFirst("(?s)\\n\\s*[A-Z]\\w*:.*$", "");
            Matcher entry = HEADER_KEY.matcher(keysSection);
            while (entry.find()) {
                headerKeys.put(Integer.parseInt(entry.group(1)), entry.group(2));
            }
        }
        String code = stripComments(text);
        Matcher s = STRING.matcher(code);
        while (s.find()) {
            stringLiterals.add(s.group(1) != null ? s.group(1) : s.group(2));
        }
        Matcher base = BASE_SUFFIX.matcher(code);
        while (base.find()) {
            keySuffixes.add(new NameUse(file, line(code, base.start()), base.group(1)));
        }
        if (STATE_ANSWERING.contains(file)) {
            Matcher r = STATE_RETURN.matcher(code);
            while (r.find()) {
                stateAnswers.add(new NameUse(file, line(code, r.start()), r.group(1)));
            }
        }
        Matcher call = CALL.matcher(code);
        while (call.find()) {
            List<String> args = splitTopLevel(code, call.end() - 1, ')');
            String command = literal(args.get(0));
            if (command == null || !HASH_COMMANDS.contains(command.toUpperCase(java.util.Locale.ROOT))
                    || args.size() < 3) {
                continue;
            }
            command = command.toUpperCase(java.util.Locale.ROOT);
            int line = line(code, call.start());
            if (args.get(1).trim().matches("KEY\\.workers|workersKey")) {
                continue; // the workers hash: its fields are worker names, not vocabulary
            }
            if (args.get(1).trim().matches("pendingKey|resultsKey")) {
                continue; // a parent's pending children and copied results: fields are child refs (<queue>:<id>)
            }
            HashKind kind = kind(code, args.get(1), headerKeys);
            if (kind == null) {
                problems.add(file + ":" + line + ": cannot tell which hash " + args.get(1).trim() + " is");
                continue;
            }
            List<String> rest = args.subList(2, args.size());
            boolean pairs = command.equals("HSET") || command.equals("HSETNX");
            boolean all = command.equals("HMGET") || command.equals("HDEL");
            for (int i = 0; i < rest.size(); i++) {
                String arg = rest.get(i).trim();
                Matcher unpack = Pattern.compile("^unpack\\((\\w+)\\)$").matcher(arg);
                if (unpack.matches()) {
                    tableFields(code, unpack.group(1), pairs).forEach(f -> add(file, line, kind, f));
                } else if ((pairs && i % 2 == 0) || all || i == 0) {
                    add(file, line, kind, resolve(code, arg));
                }
            }
        }
    }

    private void add(String file, int line, HashKind kind, String expr) {
        String lit = literal(expr);
        if (lit != null) {
            fieldUses.add(new FieldUse(file, line, kind, lit, false));
            return;
        }
        String prefix = literalPrefix(expr);
        fieldUses.add(prefix != null ? new FieldUse(file, line, kind, prefix, true)
                : new FieldUse(file, line, kind, "?" + expr, false));
    }

    /** The hash a key expression names. */
    private static HashKind kind(String code, String keyExpr, Map<Integer, String> headerKeys) {
        // The scripts' name for a job's hash, also when a shared include returns it.
        if (keyExpr.trim().equals("jobKey")) {
            return HashKind.JOB;
        }
        String expr = resolve(code, keyExpr.trim());
        Matcher keys = Pattern.compile("^KEYS\\[(\\d+)]$").matcher(expr);
        if (keys.matches()) {
            String pattern = headerKeys.get(Integer.parseInt(keys.group(1)));
            if (pattern == null) {
                return null;
            }
            expr = pattern;
        }
        String e = expr.toLowerCase(java.util.Locale.ROOT);
        // A group's settings hash: groupmeta:<g>, held in locals named stateKey.
        if (e.contains("groupmeta") || e.equals("statekey")) {
            return HashKind.GROUP;
        }
        if (e.contains("meta")) {
            return HashKind.META;
        }
        if (e.contains("scheduler") || e.equals("skey")) {
            return HashKind.SCHEDULER;
        }
        if (e.contains("job")) {
            return HashKind.JOB;
        }
        return null;
    }

    /** An identifier's expression when a {@code local} in the file assigns it, else the text as is. */
    private static String resolve(String code, String expr) {
        if (!expr.matches("[A-Za-z_]\\w*")) {
            return expr;
        }
        Matcher local = Pattern.compile("\\blocal[ \\t]+([\\w \\t,]*?\\b" + expr + "\\b[\\w \\t,]*?)=([^\\n]+)").matcher(code);
        if (!local.find()) {
            return expr;
        }
        List<String> names = List.of(local.group(1).trim().split("\\s*,\\s*"));
        String rhs = local.group(2);
        List<String> values = splitTopLevel("(" + rhs + ")", 0, ')');
        int i = names.indexOf(expr);
        return i < values.size() ? values.get(i).trim() : expr;
    }

    /** The fields in a table built in the file: its constructor's entries and its appends. */
    private static List<String> tableFields(String code, String table, boolean pairs) {
        List<String> out = new ArrayList<>();
        String constructor = resolve(code, table);
        if (constructor.startsWith("{")) {
            List<String> entries = splitTopLevel(constructor, 0, '}');
            for (int i = 0; i < entries.size(); i += pairs ? 2 : 1) {
                out.add(entries.get(i).trim());
            }
        }
        Matcher append = Pattern.compile("\\b" + table + "\\[#" + table + "\\s*\\+\\s*1]\\s*=\\s*([^\\n]+)").matcher(code);
        while (append.find()) {
            String value = append.group(1).trim();
            // In a table of field/value pairs the values are expressions: only the names are literals.
            if (!pairs || literal(value) != null || literalPrefix(value) != null) {
                out.add(value);
            }
        }
        return out;
    }

    private static String literal(String expr) {
        Matcher m = STRING.matcher(expr.trim());
        return m.matches() ? (m.group(1) != null ? m.group(1) : m.group(2)) : null;
    }

    private static String literalPrefix(String expr) {
        Matcher m = Pattern.compile("^(\"[^\"]*\")\\s*\\.\\.").matcher(expr.trim());
        return m.find() ? literal(m.group(1)) : null;
    }

    /** The arguments between {@code code[open]} and its closing bracket, split at top-level commas. */
    private static List<String> splitTopLevel(String code, int open, char close) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        StringBuilder part = new StringBuilder();
        for (int i = open + 1; i < code.length(); i++) {
            char c = code.charAt(i);
            if (c == '"' || c == '\'') {
                int end = endOfString(code, i);
                part.append(code, i, end);
                i = end - 1;
                continue;
            }
            if (depth == 0 && c == close) {
                parts.add(part.toString());
                return parts;
            }
            if (c == '(' || c == '{' || c == '[') {
                depth++;
            } else if (c == ')' || c == '}' || c == ']') {
                depth--;
            }
            if (depth == 0 && c == ',') {
                parts.add(part.toString());
                part.setLength(0);
            } else {
                part.append(c);
            }
        }
        throw new IllegalStateException("unbalanced brackets after offset " + open);
    }

    private static int endOfString(String code, int start) {
        char quote = code.charAt(start);
        for (int i = start + 1; i < code.length(); i++) {
            char c = code.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == quote || c == '\n') {
                return i + 1;
            }
        }
        return code.length();
    }

    /** The code without comments; strings and line breaks kept, so offsets map to the same lines. */
    static String stripComments(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\'') {
                int end = endOfString(text, i);
                out.append(text, i, end);
                i = end - 1;
            } else if (text.startsWith("--", i)) {
                int end;
                if (text.startsWith("--[[", i)) {
                    int close = text.indexOf("]]", i + 4);
                    end = close < 0 ? text.length() : close + 2;
                } else {
                    int nl = text.indexOf('\n', i);
                    end = nl < 0 ? text.length() : nl;
                }
                text.substring(i, end).chars().filter(ch -> ch == '\n').forEach(ch -> out.append('\n'));
                i = end - 1;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static int line(String text, int offset) {
        int line = 1;
        for (int i = 0; i < offset; i++) {
            if (text.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }
}
