package io.bullpen.lua;

import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.regex.Pattern;

/**
 * Loads scripts by name from a {@link ScriptSource}, expanding includes, and caches them. Safe
 * for concurrent use; a script is loaded on first {@link #get}.
 */
public final class ScriptCatalog {

  /** Script names are plain file names: no path separators, so nothing outside the root. */
  private static final Pattern SCRIPT_NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]*");

  private final ScriptSource source;
  private final ConcurrentMap<String, Script> cache = new ConcurrentHashMap<>();

  private ScriptCatalog(ScriptSource source) {
    this.source = source;
  }

  /** Holder so the shared catalog is created on first use. */
  private static final class Shared {
    static final ScriptCatalog CLASSPATH = new ScriptCatalog(ScriptSource.classpath());
  }

  /**
   * The scripts shipped in this library's jar. Shared and cached for the life of the class loader.
   *
   * @return the classpath catalog
   */
  public static ScriptCatalog classpath() {
    return Shared.CLASSPATH;
  }

  /**
   * A catalog of the scripts in a directory laid out like {@code src/main/lua}.
   *
   * @param dir the script root; includes are in {@code dir/includes/}
   * @return a new catalog
   */
  public static ScriptCatalog directory(Path dir) {
    return of(ScriptSource.directory(dir));
  }

  /**
   * A catalog over any source.
   *
   * @param source where script text comes from
   * @return a new catalog
   */
  public static ScriptCatalog of(ScriptSource source) {
    return new ScriptCatalog(source);
  }

  /**
   * The script with this name, loaded, expanded and parsed on first request.
   *
   * @param name the script's file name without {@code .lua}
   * @return the script
   * @throws IllegalArgumentException for an unknown script, an unknown include, an include cycle or
   *     a file with no header block; the message names the culprit
   */
  public Script get(String name) {
    Script cached = cache.get(name);
    if (cached != null) {
      return cached;
    }
    // Load outside the map's lock; a racing load yields an identical script and the first wins.
    Script loaded = load(name);
    Script raced = cache.putIfAbsent(name, loaded);
    return raced != null ? raced : loaded;
  }

  /**
   * The names of every script in this catalog (not the includes).
   *
   * @return script names, sorted
   * @throws UnsupportedOperationException when the source cannot enumerate its files, such as a
   *     class path location that is neither a directory nor a jar with directory entries
   */
  public Set<String> names() {
    return source.scriptNames();
  }

  private static final Pattern LUA_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final Set<String> LUA_KEYWORDS = Set.of("and", "break", "do", "else", "elseif", "end",
      "false", "for", "function", "goto", "if", "in", "local", "nil", "not", "or", "repeat", "return",
      "then", "true", "until", "while");

  /**
   * The generated ARGV names: {@code local ARG = {jobKeyPrefix = ARGV[1], ...}} for the fixed
   * entries (a Lua keyword as {@code ["repeat"]}), and for a repeated tail ({@code 12 record...})
   * {@code local ARG_FROM = {record = 12}}, the index it starts at, so a script reads neither a
   * fixed argument nor the start of its tail by a literal position. Nothing for a script without
   * ARGV.
   */
  static String argNames(ScriptHeader header) {
    StringBuilder fixed = new StringBuilder();
    StringBuilder tail = new StringBuilder();
    for (ScriptHeader.Entry arg : header.argv()) {
      String name = arg.repeated() ? arg.name().substring(0, arg.name().length() - 3) : arg.name();
      if (!LUA_NAME.matcher(name).matches()) {
        continue; // a header problem the lint reports
      }
      String field = LUA_KEYWORDS.contains(name) ? "[\"" + name + "\"]" : name;
      if (arg.repeated()) {
        tail.append(tail.length() == 0 ? "" : ", ").append(field).append(" = ").append(arg.index());
      } else {
        fixed.append(fixed.length() == 0 ? "" : ", ").append(field).append(" = ARGV[").append(arg.index()).append(']');
      }
    }
    String out = fixed.length() == 0 ? "" : "local ARG = {" + fixed + "} -- generated from the header's ARGV\n";
    return tail.length() == 0 ? out
        : out + "local ARG_FROM = {" + tail + "} -- where the header's repeated ARGV starts\n";
  }

  private Script load(String name) {
    String file = name + ".lua";
    String text = SCRIPT_NAME.matcher(name).matches() ? source.read(file).orElse(null) : null;
    if (text == null) {
      throw new IllegalArgumentException("unknown script '" + name + "' (no " + file + " in "
          + source + ")");
    }
    ScriptHeader header = ScriptHeader.parse(name, text);
    IncludeExpander.Result expanded = IncludeExpander.expand(source, file, text);
    String named = withRecordFields(name, withKeyNames(expanded.text(), header), header);
    String positioned = withPositions(named, header);
    return new Script(name, FunctionLibrary.unmarked(positioned), FunctionLibrary.unmarked(named), header,
        expanded.includes(), positioned);
  }

  private static final Pattern NAME_TOKEN = Pattern.compile(
      "\\b(KEY|ARG|ARG_FROM)(?:\\.([A-Za-z_][A-Za-z0-9_]*)\\b|\\[\"([A-Za-z_][A-Za-z0-9_]*)\"\\])");
  private static final Pattern COMMENT = Pattern.compile("--\\[(=*)\\[[\\s\\S]*?\\]\\1\\]|--[^\\n]*");

  /**
   * Resolves the names of the generated tables to positions, as the script runs in Redis:
   * {@code KEY.wait} becomes {@code KEYS[1]}, {@code ARG.now} (or {@code ARG["now"]}) {@code
   * ARGV[2]} and {@code ARG_FROM.job} the index the tail starts at. A table is still defined when
   * the script uses it otherwise (passes {@code ARG} whole to a function); else its generated line
   * is dropped. Each table entry cost every call of the script about 650 instructions, and its
   * reads a table lookup more (callgrind, docs/adr/0008-lua-cost-rules.md); a name the header does
   * not declare is left as written (the lint reports it, and Lua reads it as nil).
   */
  static String withPositions(String text, ScriptHeader header) {
    java.util.Map<String, String> keys = new java.util.HashMap<>();
    java.util.Map<String, String> args = new java.util.HashMap<>();
    java.util.Map<String, String> tails = new java.util.HashMap<>();
    for (ScriptHeader.Entry key : header.keys()) {
      keys.put(key.name(), "KEYS[" + key.index() + "]");
    }
    for (ScriptHeader.Entry arg : header.argv()) {
      if (arg.repeated()) {
        tails.put(arg.name().substring(0, arg.name().length() - 3), Integer.toString(arg.index()));
      } else {
        args.put(arg.name(), "ARGV[" + arg.index() + "]");
      }
    }
    java.util.regex.Matcher m = NAME_TOKEN.matcher(text);
    StringBuilder out = new StringBuilder(text.length());
    while (m.find()) {
      java.util.Map<String, String> table = switch (m.group(1)) {
        case "KEY" -> keys;
        case "ARG" -> args;
        default -> tails;
      };
      String position = table.get(m.group(2) != null ? m.group(2) : m.group(3));
      m.appendReplacement(out, java.util.regex.Matcher.quoteReplacement(position != null ? position : m.group()));
    }
    m.appendTail(out);
    String resolved = out.toString();
    String code = COMMENT.matcher(resolved).replaceAll(" ");
    for (String table : new String[] {"KEY", "ARG", "ARG_FROM"}) {
      // Uses left besides the generated definition itself: keep the table.
      java.util.regex.Matcher uses = Pattern.compile("\\b" + table + "\\b").matcher(code);
      int count = 0;
      while (uses.find()) {
        count++;
      }
      if (count <= 1) {
        resolved = resolved.replaceFirst("(?m)^local " + table + " = \\{.*\\n", "");
      }
    }
    return resolved;
  }

  private static final Pattern RECORD_TOKEN =
      Pattern.compile("\\b(?:FIELD\\.([A-Za-z_][A-Za-z0-9_]*)\\.([A-Za-z_][A-Za-z0-9_]*)|STRIDE\\.([A-Za-z_][A-Za-z0-9_]*))");

  /**
   * Resolves the record layout of the header's {@code Records:} section where the script names it:
   * {@code FIELD.<kind>.<field>} becomes the field's offset from the record's start (the kind is at
   * 0) and {@code STRIDE.<kind>} the record's length. Resolved here, at load, rather than as a Lua
   * table: a table of the layouts, built on every call, cost more than reading the fields
   * (docs/adr/0012-finish-records.md).
   *
   * @throws IllegalArgumentException naming the script and the token for a kind or field the
   *     header does not declare
   */
  static String withRecordFields(String script, String text, ScriptHeader header) {
    java.util.regex.Matcher m = RECORD_TOKEN.matcher(text);
    StringBuilder out = new StringBuilder(text.length());
    while (m.find()) {
      String kind = m.group(1) != null ? m.group(1) : m.group(3);
      java.util.List<String> fields = header.records().get(kind);
      int value;
      if (fields == null) {
        value = -1;
      } else if (m.group(3) != null) {
        value = fields.size() + 1;
      } else {
        value = fields.indexOf(m.group(2)) + 1;
      }
      if (value <= 0) {
        throw new IllegalArgumentException("script '" + script + "': " + m.group()
            + " names no record kind or field of its header's Records: section");
      }
      m.appendReplacement(out, Integer.toString(value));
    }
    m.appendTail(out);
    return out.toString();
  }

  /**
   * Puts {@code local KEY = {wait = KEYS[1], ...}} right after the header block, generated from
   * the header's KEYS names, so scripts say {@code KEY.wait} and never a position: the header is
   * the one place a key's position is written. The same for the ARGV (see {@link #argNames}).
   */
  static String withKeyNames(String text, ScriptHeader header) {
    StringBuilder table = new StringBuilder("local KEY = {");
    boolean first = true;
    for (ScriptHeader.Entry key : header.keys()) {
      if (!LUA_NAME.matcher(key.name()).matches()) {
        continue; // a malformed name is a header problem the lint reports; no field for it
      }
      table.append(first ? "" : ", ").append(key.name()).append(" = KEYS[").append(key.index()).append(']');
      first = false;
    }
    table.append("} -- generated from the header's KEYS\n");
    table.append(argNames(header));
    // After the header block's closing line (the parser found one, or load would have failed).
    int at = 0;
    while (at < text.length()) {
      int next = text.indexOf('\n', at);
      String line = next < 0 ? text.substring(at) : text.substring(at, next);
      if (at > 0 && line.trim().equals("]]")) {
        return next < 0 ? text + "\n" + table : text.substring(0, next + 1) + table + text.substring(next + 1);
      }
      if (next < 0) {
        break;
      }
      at = next + 1;
    }
    return table + text;
  }

  @Override
  public String toString() {
    return "ScriptCatalog[" + source + "]";
  }
}
