package io.bullpen.lua;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Expands {@code --- @include "name"} directives of one script, depth-first where each directive
 * stands. An include already expanded into this script is dropped, because a second copy of a
 * {@code local function} would be dead weight (and Lua caps a chunk's locals at 200).
 */
final class IncludeExpander {

  /** A directive is a whole line; anything else mentioning @include is left alone (lint flags it). */
  static final Pattern DIRECTIVE = Pattern.compile("^\\s*---\\s*@include\\s+\"([^\"]*)\"\\s*$");

  /** Include names are Lua identifiers, which also keeps them from naming paths outside includes/. */
  private static final Pattern INCLUDE_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private final ScriptSource source;
  private final Set<String> included = new LinkedHashSet<>();
  private final Deque<String> chain = new ArrayDeque<>();

  private IncludeExpander(ScriptSource source) {
    this.source = source;
  }

  /** The expanded text of {@code scriptFile} and the includes it pulled in, in order. */
  record Result(String text, List<String> includes) {}

  static Result expand(ScriptSource source, String scriptFile, String text) {
    IncludeExpander expander = new IncludeExpander(source);
    String expanded = expander.expandText(scriptFile, text);
    return new Result(expanded, new ArrayList<>(expander.included));
  }

  private String expandText(String file, String text) {
    String[] lines = Texts.normalize(text).split("\n", -1);
    List<String> out = new ArrayList<>(lines.length);
    for (String line : lines) {
      Matcher m = DIRECTIVE.matcher(line);
      if (!m.matches()) {
        out.add(line);
        continue;
      }
      String name = m.group(1);
      if (chain.contains(name)) {
        throw new IllegalArgumentException("include cycle: " + cycle(name));
      }
      if (included.add(name)) {
        // A script's own unindented directive: its expansion is the script's prelude (what a
        // function library defines once, see FunctionLibrary).
        boolean prelude = chain.isEmpty() && !Character.isWhitespace(line.charAt(0));
        if (prelude) {
          out.add(FunctionLibrary.PRELUDE_BEGIN);
        }
        out.add(stripFinalNewline(expandInclude(file, name)));
        if (prelude) {
          out.add(FunctionLibrary.PRELUDE_END);
        }
      }
    }
    return String.join("\n", out);
  }

  private String expandInclude(String requestedBy, String name) {
    String path = "includes/" + name + ".lua";
    String text = INCLUDE_NAME.matcher(name).matches() ? source.read(path).orElse(null) : null;
    if (text == null) {
      throw new IllegalArgumentException(
          "unknown include '" + name + "' requested by " + requestedBy + " (no " + path + ")");
    }
    chain.addLast(name);
    try {
      return expandText(path, text);
    } finally {
      chain.removeLast();
    }
  }

  private String cycle(String repeated) {
    List<String> names = new ArrayList<>(chain);
    List<String> loop = new ArrayList<>(names.subList(names.indexOf(repeated), names.size()));
    loop.add(repeated);
    return String.join(" -> ", loop);
  }

  /** The line join puts the newline back, so a file's own final newline must not double it. */
  private static String stripFinalNewline(String text) {
    return text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
  }
}
