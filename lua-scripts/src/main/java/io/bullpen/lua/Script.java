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
  private final FunctionLibrary library;

  /**
   * @param marked {@code source} with its prelude marked (see {@link FunctionLibrary})
   */
  Script(String name, String source, String namedSource, ScriptHeader header, List<String> includes, String marked) {
    this.name = name;
    this.source = source;
    this.namedSource = namedSource;
    this.sha1 = Sha1.hex(source);
    this.header = header;
    this.includes = List.copyOf(includes);
    this.library = FunctionLibrary.of(sha1, marked);
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
   * The name of the function the script runs as on Redis 7 and later ({@code FCALL}), in the
   * library {@link #functionLibrary(String...)} loads: {@code bullpen_} and the script's {@link #sha1()}, so
   * scripts of different versions never replace each other.
   *
   * @return the function's (and its library's) name
   */
  public String functionName() {
    return library.name();
  }

  /**
   * The script as a Redis function library, for {@code FUNCTION LOAD}: what the script's own
   * include directives pulled in (its functions and constants) runs once, when the library loads,
   * and the rest (the script's own code, the generated name tables) is the body of the function
   * {@link #functionName()}, run on every {@code FCALL} with the same {@code KEYS} and
   * {@code ARGV} as {@code EVALSHA}. A script run with {@code EVALSHA} makes every function it
   * defines again on every call; as a function it makes none.
   *
   * @param flags the function's flags, such as {@code allow-oom} (a call Redis runs when it is out
   *     of memory: a finish that frees memory); none, and Redis refuses a call while it is out of
   *     memory before the call runs
   * @return the library's source, starting with its {@code #!lua name=} line
   * @throws IllegalArgumentException for a flag that is not a lowercase word
   */
  public String functionLibrary(String... flags) {
    return library.source(List.of(flags));
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
