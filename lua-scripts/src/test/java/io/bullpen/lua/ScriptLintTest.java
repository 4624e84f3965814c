package io.bullpen.lua;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Lints the real scripts in {@code src/main/lua} (surefire runs with the module as working
 * directory) and checks that the jar's copies expand to the same text.
 */
class ScriptLintTest {

  private static final Path LUA = Path.of("src/main/lua");
  private static final ScriptCatalog SOURCE = ScriptCatalog.directory(LUA);
  private static final Pattern KEYS_INDEX = Pattern.compile("\\bKEYS\\[(\\d+)\\]");
  private static final Pattern ARGV_INDEX = Pattern.compile("\\bARGV\\[(\\d+)\\]");

  @Test
  void thereAreScriptsToLint() {
    assertThat(SOURCE.names()).isNotEmpty();
  }

  @TestFactory
  Stream<DynamicTest> everyScriptIsComplete() {
    return SOURCE.names().stream().map(name -> dynamicTest(name, () -> {
      Script script = SOURCE.get(name); // throws on an unknown include or a cycle
      SoftAssertions soft = new SoftAssertions();
      soft.assertThat(script.header().problems()).as("%s header problems", name).isEmpty();
      soft.assertThat(script.keyCount()).as("%s declared key count", name).isGreaterThanOrEqualTo(1);
      soft.assertThat(script.source()).as("%s expanded source", name).doesNotContain("@include");
      String own = read(name + ".lua");
      soft.assertThat(LuaLint.code(own))
          .as("%s: keys are named (KEY.wait, generated from the header), never KEYS[n]", name)
          .doesNotContainPattern(KEYS_INDEX);
      soft.assertThat(LuaLint.code(own))
          .as("%s: every KEY.name is a header key", name)
          .satisfies(code -> assertThat(LuaLint.keyNamesUsed(code)).isSubsetOf(
              script.header().keys().stream().map(ScriptHeader.Entry::name).toList()));
      String code = LuaLint.code(script.namedSource().replace(ScriptCatalog.argNames(script.header()), ""));
      soft.assertThat(code)
          .as("%s: arguments are named (ARG.now, ARG_FROM.record, generated from the header), never ARGV[n],"
              + " in the script and its includes", name)
          .doesNotContainPattern(ARGV_INDEX);
      List<String> argNames = script.header().argv().stream()
          .map(e -> e.repeated() ? e.name().substring(0, e.name().length() - 3) : e.name()).toList();
      soft.assertThat(LuaLint.argNamesUsed(code))
          .as("%s: every ARG.name and ARG_FROM.name is a header argument", name)
          .isSubsetOf(argNames);
      soft.assertAll();
    }));
  }

  @TestFactory
  Stream<DynamicTest> everyIncludeIsWellFormedAndUsed() {
    Set<String> used = new HashSet<>();
    SOURCE.names().forEach(name -> used.addAll(SOURCE.get(name).includes()));
    return includeNames().stream().map(name -> dynamicTest(name, () -> {
      String text = read("includes/" + name + ".lua");
      SoftAssertions soft = new SoftAssertions();
      soft.assertThat(text)
          .as("includes/%s.lua opens with a '--[[ %s: description ]]' header", name, name)
          .containsPattern("\\A--\\[\\[\\s*" + Pattern.quote(name) + ":\\s*\\S[\\s\\S]*?\\]\\]");
      soft.assertThat(text)
          .as("includes/%s.lua defines its function", name)
          .containsPattern("(?m)^local function " + Pattern.quote(name) + "\\(");
      soft.assertThat(used).as("scripts that include %s", name).contains(name);
      // A function library runs an include's top level once and keeps it for every call: a
      // top-level local holding per-call state would leak from one call into the next.
      for (String line : LuaLint.code(text).split("\n")) {
        if (line.startsWith("local ") && !line.startsWith("local function ")) {
          soft.assertThat(line)
              .as("includes/%s.lua: a top-level local is a function or a table of literals (per-call state"
                  + " goes in q)", name)
              .matches("local [A-Za-z_][A-Za-z0-9_]* = \\{(\\s*(\"[^\"]*\"|-?[0-9.]+)\\s*,?)*\\}\\s*");
        }
      }
      soft.assertAll();
    }));
  }

  /**
   * Every file names what it uses: a call to a function that an include defines needs that
   * include's own directive in the calling file (arriving through another include does not
   * count, so dropping an include from one file never breaks another).
   */
  @TestFactory
  Stream<DynamicTest> everyFileDirectlyIncludesTheFunctionsItCalls() {
    Map<String, String> definedIn = new TreeMap<>();
    for (String include : includeNames()) {
      for (String function : LuaLint.definedFunctions(read("includes/" + include + ".lua"))) {
        definedIn.put(function, include);
      }
    }
    List<String> files = new ArrayList<>();
    SOURCE.names().forEach(name -> files.add(name + ".lua"));
    includeNames().forEach(name -> files.add("includes/" + name + ".lua"));
    return files.stream().map(file -> dynamicTest(file, () -> {
      String text = read(file);
      Set<String> direct = LuaLint.directIncludes(text);
      Set<String> missing = new TreeSet<>();
      for (String called : LuaLint.calledFunctions(text)) {
        String include = definedIn.get(called);
        if (include != null && !direct.contains(include) && !file.equals("includes/" + include + ".lua")) {
          missing.add(include + " (for " + called + ")");
        }
      }
      assertThat(missing).as("%s calls functions of includes it does not include", file).isEmpty();
    }));
  }

  /**
   * Every queue key a script touches is one of its KEYS: a context field a command names as its
   * key ({@code redis.call("ZADD", q.schedulers, ...)}) must be set from KEYS somewhere in the
   * expanded script (or, for the group sets, by the include groups), and the only keys built
   * from the queue's base are the per-scheduler and per-group keys and the group sets ({@code q.base .. "scheduler:"}, {@code "group:"}, {@code "groupmeta:"}).
   * Job-scoped keys (built from the job prefix) are exempt.
   */
  /** The suffixes a script may append to q.base: keys of one scheduler, group or deduplication id, or one job's kept result, like job keys. */
  static final Set<String> PER_ENTITY_KEYS = Set.of("scheduler:", "group:", "groupmeta:", "dedup:", "result:",
      "groups", "groups:ready", "groups:limited",
      // notifyParent: built only when a job with a parent finishes, so a plain finish passes no key for them
      "waiting-children", "flow:outbox");

  /**
   * The group sets, which the include {@code groups} builds from the base when a script did not
   * take them as KEYS (the hot scripts do not: a key argument costs every call).
   */
  static final Set<String> GROUP_SETS = Set.of("groups", "groupsReady", "groupsLimited");

  /** The keys addSidePaths builds from the base for the add paths that need them. */
  static final Set<String> ADD_SIDE_KEYS = Set.of("prioritized", "delayed");

  /**
   * The flow keys, which the include {@code notifyParent} builds from the base when a script did
   * not take them as KEYS (the finish builds them only for a job with a parent).
   */
  static final Set<String> FLOW_KEYS = Set.of("waitingChildren", "flowOutbox");

  @Test
  void onlyPerSchedulerAndPerGroupKeysMayBeBuiltFromTheBase() {
    assertThat(LuaLint.keysBuiltFromBase("local k = q.base .. \"groupmeta:\" .. g; local j = q.base .. \"group:\" .. g"))
        .allMatch(PER_ENTITY_KEYS::contains);
    assertThat(LuaLint.keysBuiltFromBase("local k = q.base .. \"leases\""))
        .noneMatch(PER_ENTITY_KEYS::contains);
  }

  @TestFactory
  Stream<DynamicTest> everyQueueKeyAScriptTouchesIsDeclared() {
    return SOURCE.names().stream().map(name -> dynamicTest(name, () -> {
      String code = LuaLint.code(SOURCE.get(name).namedSource());
      SoftAssertions soft = new SoftAssertions();
      Set<String> declared = new TreeSet<>(LuaLint.fieldsFromKeys(code));
      if (SOURCE.get(name).includes().contains("groups")) {
        declared.addAll(GROUP_SETS);
      }
      if (SOURCE.get(name).includes().contains("notifyParent")) {
        declared.addAll(FLOW_KEYS);
      }
      Set<String> fromBase = new HashSet<>(PER_ENTITY_KEYS);
      if (SOURCE.get(name).includes().contains("addSidePaths")) {
        declared.addAll(ADD_SIDE_KEYS);
        fromBase.addAll(ADD_SIDE_KEYS);
      }
      soft.assertThat(LuaLint.commandKeyFields(code))
          .as("%s: context fields used as command keys but never set from KEYS (or by groups)", name)
          .isSubsetOf(declared);
      soft.assertThat(LuaLint.keysBuiltFromBase(code))
          .as("%s: keys built from q.base (only per-scheduler and per-group keys may be)", name)
          .allMatch(fromBase::contains);
      soft.assertAll();
    }));
  }

  /** The context {@code q} is described in one place: every field used anywhere is listed there. */
  @Test
  void everyContextFieldIsDocumentedInQueueContext() {
    String documented = read("includes/queueContext.lua");
    documented = documented.substring(0, documented.indexOf("]]"));
    Set<String> undocumented = new TreeSet<>();
    List<String> files = new ArrayList<>();
    SOURCE.names().forEach(name -> files.add(name + ".lua"));
    includeNames().forEach(name -> files.add("includes/" + name + ".lua"));
    for (String file : files) {
      for (String field : LuaLint.contextFields(read(file))) {
        if (!Pattern.compile("\\b" + field + "\\b").matcher(documented).find()) {
          undocumented.add(field + " (" + file + ")");
        }
      }
    }
    assertThat(undocumented).as("fields of q missing from includes/queueContext.lua's header").isEmpty();
  }

  @Test
  void theJarHoldsTheSameScripts() {
    ScriptCatalog jar = ScriptCatalog.classpath();

    assertThat(jar.names()).isEqualTo(SOURCE.names());
    SoftAssertions soft = new SoftAssertions();
    for (String name : SOURCE.names()) {
      Script fromJar = jar.get(name);
      Script fromDir = SOURCE.get(name);
      soft.assertThat(fromJar.source()).as("%s source", name).isEqualTo(fromDir.source());
      soft.assertThat(fromJar.sha1()).as("%s sha1", name).isEqualTo(fromDir.sha1());
      soft.assertThat(fromJar.includes()).as("%s includes", name).isEqualTo(fromDir.includes());
    }
    soft.assertAll();
  }

  private static Set<String> includeNames() {
    try (Stream<Path> files = Files.list(LUA.resolve("includes"))) {
      Set<String> names = new TreeSet<>();
      files.map(f -> f.getFileName().toString())
          .filter(n -> n.endsWith(".lua"))
          .forEach(n -> names.add(n.substring(0, n.length() - ".lua".length())));
      return names;
    } catch (IOException e) {
      throw new AssertionError("cannot list " + LUA.resolve("includes"), e);
    }
  }

  private static String read(String relativePath) {
    return ScriptSource.directory(LUA).read(relativePath)
        .orElseThrow(() -> new AssertionError("missing " + relativePath));
  }

}
