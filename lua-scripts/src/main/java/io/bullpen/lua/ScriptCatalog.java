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
    return new Script(name, withRecordFields(name, withKeyNames(expanded.text(), header), header), header,
        expanded.includes());
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
