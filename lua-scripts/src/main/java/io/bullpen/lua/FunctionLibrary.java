package io.bullpen.lua;

import java.util.ArrayList;
import java.util.List;

/**
 * A script as a Redis function library. The lines a script's own include directives expanded to
 * (between {@link #PRELUDE_BEGIN} and {@link #PRELUDE_END}, which only the catalog's intermediate
 * text carries) form the library's top level, run once at {@code FUNCTION LOAD}; every other line
 * forms the body of the one function the library registers. {@code KEYS} and {@code ARGV} are
 * locals of the library that each call sets before the body runs, so the included functions read
 * them as they do under {@code EVALSHA}.
 *
 * <p>What the prelude defines outlives a call, so an include must keep no per-call state in a
 * top-level local (state lives in the call's {@code q} table); the lint checks that top-level
 * locals of includes are functions or constant tables.
 */
final class FunctionLibrary {
  static final String PRELUDE_BEGIN = "--@@prelude{";
  static final String PRELUDE_END = "--@@prelude}";

  private static final java.util.regex.Pattern FLAG = java.util.regex.Pattern.compile("[a-z-]+");

  private final String name;
  private final String prelude;
  private final String body;

  private FunctionLibrary(String name, String prelude, String body) {
    this.name = name;
    this.prelude = prelude;
    this.body = body;
  }

  /** @return the library's name, also the name of its function */
  String name() {
    return name;
  }

  /**
   * @param flags the function's flags ({@code allow-oom}, ...; none: Redis refuses a call when it
   *     is out of memory, before it runs)
   * @return the text for {@code FUNCTION LOAD}
   * @throws IllegalArgumentException for a flag that is not a lowercase word
   */
  String source(List<String> flags) {
    StringBuilder quoted = new StringBuilder();
    for (String flag : flags) {
      if (!FLAG.matcher(flag).matches()) {
        throw new IllegalArgumentException("not a function flag: '" + flag + "'");
      }
      quoted.append(quoted.length() == 0 ? "" : ", ").append('\'').append(flag).append('\'');
    }
    return "#!lua name=" + name + "\n"
        + "local KEYS, ARGV\n"
        + prelude
        + "redis.register_function{function_name = '" + name + "', flags = {" + quoted + "}, callback = function(keys, args)\n"
        + "KEYS, ARGV = keys, args\n"
        + body
        + "\nend}\n";
  }

  /** The text without the prelude markers: the script as {@code EVALSHA} runs it. */
  static String unmarked(String marked) {
    if (!marked.contains(PRELUDE_BEGIN)) {
      return marked;
    }
    List<String> out = new ArrayList<>();
    for (String line : marked.split("\n", -1)) {
      if (!line.equals(PRELUDE_BEGIN) && !line.equals(PRELUDE_END)) {
        out.add(line);
      }
    }
    return String.join("\n", out);
  }

  /**
   * @param sha1 the script's SHA-1 (of its unmarked text): names the library and its function
   * @param marked the script's text with its prelude marked
   */
  static FunctionLibrary of(String sha1, String marked) {
    String name = "bullpen_" + sha1;
    StringBuilder prelude = new StringBuilder();
    StringBuilder body = new StringBuilder();
    boolean inPrelude = false;
    for (String line : marked.split("\n", -1)) {
      if (line.equals(PRELUDE_BEGIN)) {
        inPrelude = true;
      } else if (line.equals(PRELUDE_END)) {
        inPrelude = false;
      } else {
        (inPrelude ? prelude : body).append(line).append('\n');
      }
    }
    return new FunctionLibrary(name, prelude.toString(), body.toString());
  }
}
