package io.bullpen.lua;

import java.util.List;

/**
 * A script ready to send to Redis: its include directives expanded, its header parsed and the
 * SHA-1 that {@code EVALSHA} will look it up by.
 */
public final class Script {

  private final String name;
  private final String source;
  private final String namedSource;
  private final String sha1;
  private final ScriptHeader header;
  private final List<String> includes;

  Script(String name, String source, String namedSource, ScriptHeader header, List<String> includes) {
    this.name = name;
    this.source = source;
    this.namedSource = namedSource;
    this.sha1 = Sha1.hex(source);
    this.header = header;
    this.includes = List.copyOf(includes);
  }

  /**
   * The script's name, its file name without {@code .lua}.
   *
   * @return the name
   */
  public String name() {
    return name;
  }

  /**
   * The fully expanded text: every {@code --- @include "name"} line replaced by that include's
   * (itself expanded) text, each include at most once; the header's key and argument names
   * resolved to their positions ({@code KEY.wait} is {@code KEYS[1]}, see
   * {@link ScriptCatalog#withPositions}).
   *
   * @return the Lua source to pass to {@code SCRIPT LOAD} or {@code EVAL}
   */
  public String source() {
    return source;
  }

  /**
   * The expanded text as written, with the generated name tables ({@code local KEY = {wait =
   * KEYS[1], ...}}) and the names used through them: what the lint reads.
   */
  String namedSource() {
    return namedSource;
  }

  /**
   * Lowercase hex SHA-1 of {@link #source()} as UTF-8, the digest Redis files the script under.
   *
   * @return 40 lowercase hex digits
   */
  public String sha1() {
    return sha1;
  }

  /**
   * The parsed header of the script file.
   *
   * @return the header
   */
  public ScriptHeader header() {
    return header;
  }

  /**
   * The number of keys to pass as {@code numkeys}, as declared in the header.
   *
   * @return the header's key count
   */
  public int keyCount() {
    return header.keyCount();
  }

  /**
   * The includes pulled into {@link #source()}, in the order their text appears there.
   *
   * @return include names, each once
   */
  public List<String> includes() {
    return includes;
  }

  @Override
  public String toString() {
    return "Script[" + name + ", sha1=" + sha1 + "]";
  }
}
