package io.bullpen.lua;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads what a Lua file defines, calls and includes, for the lint tests (comments ignored). */
final class LuaLint {

  private static final Pattern BLOCK_COMMENT = Pattern.compile("--\\[\\[[\\s\\S]*?\\]\\]");
  private static final Pattern LINE_COMMENT = Pattern.compile("--[^\\n]*");
  private static final Pattern DEFINITION = Pattern.compile("(?m)^local function ([A-Za-z_][A-Za-z0-9_]*)\\(");
  /** A plain call {@code name(}: not a method ({@code a.name(}, {@code a:name(}), not a definition. */
  private static final Pattern CALL = Pattern.compile("(?<![.:\\w])([A-Za-z_][A-Za-z0-9_]*)\\s*\\(");

  /** {@code redis.call("CMD", q.field, ...)} where the field itself (not a prefix of it) is the key. */
  private static final Pattern COMMAND_KEY_FIELD =
      Pattern.compile("redis\\.call\\(\"[A-Za-z]+\",\\s*q\\.([A-Za-z_]\\w*)(?![\\w\\[.])(?!\\s*\\.\\.)");
  private static final Pattern FIELD_FROM_KEYS = Pattern.compile("\\b([A-Za-z_]\\w*)\\s*=\\s*(?:KEYS\\[\\d+\\]|KEY\\.\\w+)");
  private static final Pattern BUILT_FROM_BASE = Pattern.compile("q\\.base\\s*\\.\\.\\s*\"([^\"]*)\"");

  private static final Pattern CONTEXT_FIELD = Pattern.compile("\\bq\\.([A-Za-z_]\\w*)");

  private static final Pattern ARG_NAME = Pattern.compile("\\bARG(?:_FROM)?\\.([A-Za-z_]\\w*)");
  private static final Pattern ARG_KEYWORD = Pattern.compile("\\bARG(?:_FROM)?\\[\"([A-Za-z_]\\w*)\"\\]");
  private static final Pattern KEY_NAME = Pattern.compile("\\bKEY\\.([A-Za-z_]\\w*)");

  private LuaLint() {}

  /** The names read from the generated KEY table ({@code KEY.wait}), in comment-free code. */
  static Set<String> keyNamesUsed(String code) {
    return all(KEY_NAME, code);
  }

  /** Argument names a script reads ({@code ARG.now}, {@code ARG["repeat"]}, {@code ARG_FROM.record}), in comment-free code. */
  static Set<String> argNamesUsed(String code) {
    Set<String> names = all(ARG_NAME, code);
    names.addAll(all(ARG_KEYWORD, code));
    return names;
  }

  /** The fields of the context {@code q} that the file's code reads or writes. */
  static Set<String> contextFields(String text) {
    return all(CONTEXT_FIELD, code(text));
  }

  /** Context fields that a command names as its key, in comment-free code. */
  static Set<String> commandKeyFields(String code) {
    return all(COMMAND_KEY_FIELD, code);
  }

  /** Names assigned straight from KEYS ({@code wait = KEY.wait}, {@code q.x = KEYS[2]}), in comment-free code. */
  static Set<String> fieldsFromKeys(String code) {
    return all(FIELD_FROM_KEYS, code);
  }

  /** The literal suffixes appended to {@code q.base}, in comment-free code. */
  static Set<String> keysBuiltFromBase(String code) {
    return all(BUILT_FROM_BASE, code);
  }

  /** The file without comments; include directives are comments too, so they go with them. */
  static String code(String text) {
    return LINE_COMMENT.matcher(BLOCK_COMMENT.matcher(text).replaceAll("")).replaceAll("");
  }

  static Set<String> definedFunctions(String text) {
    return all(DEFINITION, code(text));
  }

  static Set<String> calledFunctions(String text) {
    String code = code(text);
    Set<String> calls = all(CALL, code);
    // "local function f(" and "function f(" define f; they are not calls.
    calls.removeAll(all(Pattern.compile("\\bfunction\\s+([A-Za-z_][A-Za-z0-9_]*)\\s*\\("), code));
    return calls;
  }

  static Set<String> directIncludes(String text) {
    Set<String> names = new TreeSet<>();
    for (String line : Texts.normalize(text).split("\n")) {
      Matcher m = IncludeExpander.DIRECTIVE.matcher(line);
      if (m.matches()) {
        names.add(m.group(1));
      }
    }
    return names;
  }

  private static Set<String> all(Pattern pattern, String text) {
    Set<String> found = new TreeSet<>();
    Matcher m = pattern.matcher(text);
    while (m.find()) {
      found.add(m.group(1));
    }
    return found;
  }
}
