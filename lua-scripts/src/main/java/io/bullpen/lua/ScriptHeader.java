package io.bullpen.lua;

import java.util.List;

/**
 * The documented contract at the top of a script: what it does, the KEYS and ARGV it takes, what it
 * returns and which events it emits. Parsed from a block comment of this shape:
 *
 * <pre>
 * --[[
 *   addJob: adds one or more jobs to wait, prioritized or delayed.
 *
 *   KEYS:
 *     1 wait          LIST  &lt;prefix&gt;:{&lt;queue&gt;}:wait
 *   ARGV:
 *     1 now           epoch millis
 *     2 id...         then pairs of id, token
 *   Returns:
 *     {{jobId, 1|0}, ...}
 *   Events:
 *     added, duplicated
 * ]]
 * </pre>
 *
 * <p>Parsing is lenient: an incomplete header still parses and lists what is wrong in
 * {@link #problems()}, so lint can report every problem at once.
 */
public final class ScriptHeader {

  /**
   * One numbered KEYS or ARGV entry.
   *
   * @param index the number written in the header, 1-based
   * @param name the entry's name; ending in {@code ...} marks repeated trailing groups
   * @param description the rest of the line plus any continuation lines, space-joined
   */
  public record Entry(int index, String name, String description) {

    /**
     * Whether this entry stands for a repeated tail of arguments, written {@code name...}.
     *
     * @return true when the name ends with {@code ...}
     */
    public boolean repeated() {
      return name.endsWith("...");
    }
  }

  private final String name;
  private final String description;
  private final List<Entry> keys;
  private final List<Entry> argv;
  private final String returns;
  private final String events;
  private final java.util.Map<String, List<String>> records;
  private final List<String> problems;

  ScriptHeader(
      String name,
      String description,
      List<Entry> keys,
      List<Entry> argv,
      String returns,
      String events,
      java.util.Map<String, List<String>> records,
      List<String> problems) {
    this.name = name;
    this.description = description;
    this.keys = List.copyOf(keys);
    this.argv = List.copyOf(argv);
    this.returns = returns;
    this.events = events;
    this.records = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(records));
    this.problems = List.copyOf(problems);
  }

  /**
   * Parses the header block of a script file.
   *
   * @param name the script's name, that is its file name without {@code .lua}
   * @param text the script file's text
   * @return the header, with any incompleteness listed in {@link #problems()}
   * @throws IllegalArgumentException naming the script when the text does not open with a
   *     {@code --[[} ... {@code ]]} header block
   */
  public static ScriptHeader parse(String name, String text) {
    return HeaderParser.parse(name, text);
  }

  /**
   * The name written in the header; equals the file name unless {@link #problems()} says not.
   *
   * @return the header's name, empty when the header has no name line
   */
  public String name() {
    return name;
  }

  /**
   * What the script does: the text after {@code name:} plus any further lines before the first
   * section, newline-joined.
   *
   * @return the description, empty when missing
   */
  public String description() {
    return description;
  }

  /**
   * The KEYS entries in header order.
   *
   * @return the key entries, possibly empty
   */
  public List<Entry> keys() {
    return keys;
  }

  /**
   * The ARGV entries in header order.
   *
   * @return the argument entries, possibly empty
   */
  public List<Entry> argv() {
    return argv;
  }

  /**
   * The free text of the {@code Returns:} section, trimmed lines newline-joined.
   *
   * @return the returns text, empty when missing
   */
  public String returns() {
    return returns;
  }

  /**
   * The free text of the {@code Events:} section, trimmed lines newline-joined ({@code none} when
   * the script emits none).
   *
   * @return the events text, empty when missing
   */
  public String events() {
    return events;
  }

  /**
   * The layouts of the records in a repeated ARGV tail, from the optional {@code Records:}
   * section ({@code kind: field field ...}): a record is its kind, then its fields in this order,
   * so a field's offset from the record's start is its index here plus one and the record's
   * length is the number of fields plus one.
   *
   * @return field names by record kind, in header order; empty without a {@code Records:} section
   */
  public java.util.Map<String, List<String>> records() {
    return records;
  }

  /**
   * The number of keys the script declares: the {@code numkeys} argument of {@code EVALSHA}.
   *
   * @return the size of {@link #keys()}
   */
  public int keyCount() {
    return keys.size();
  }

  /**
   * What makes this header incomplete or inconsistent: a missing description, a missing or empty
   * section, KEYS or ARGV not numbered exactly 1..n, duplicate names, a header name that differs
   * from the file name.
   *
   * @return human-readable problems, empty for a complete header
   */
  public List<String> problems() {
    return problems;
  }

  @Override
  public String toString() {
    return "ScriptHeader[" + name + ", keys=" + keys.size() + ", argv=" + argv.size() + "]";
  }
}
