package io.bullpen.lua;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IncludeResolutionTest {

  @TempDir Path dir;
  private LuaTree tree;

  @BeforeEach
  void setUp() {
    tree = new LuaTree(dir);
  }

  @Test
  void sha1IsWhatRedisNamesTheScriptBy() {
    assertThat(Sha1.hex("return 1")).isEqualTo("e0e1f9fabfc9d4800c877a703b823ac0578ff8db");
  }

  @Test
  void aScriptWithoutIncludesIsItsFileWithItsKeysNamedAfterTheHeader() {
    tree.file("one.lua", LuaTree.header("one") + "return 1");

    Script script = tree.catalog().get("one");

    assertThat(script.namedSource()).isEqualTo(LuaTree.header("one") + LuaTree.KEY_TABLE + "return 1");
    assertThat(script.sha1()).isEqualTo(Sha1.hex(script.source())).matches("[0-9a-f]{40}");
    assertThat(script.includes()).isEmpty();
    assertThat(script.keyCount()).isEqualTo(1);
    assertThat(script.header().problems()).isEmpty();
  }

  @Test
  void replacesTheDirectiveWithTheIncludeWhereItStands() {
    tree.include("helper", "local function helper() return 1 end\n")
        .script("main", "local x = 1\n--- @include \"helper\"\nreturn helper()\n");

    Script script = tree.catalog().get("main");

    assertThat(script.namedSource()).isEqualTo(LuaTree.header("main") + LuaTree.KEY_TABLE
        + "local x = 1\n"
        + "--[[ helper: fixture include ]]\nlocal function helper() return 1 end\n"
        + "return helper()\n");
    assertThat(script.includes()).containsExactly("helper");
  }

  @Test
  void theKeyTableNamesEveryHeaderKeyByItsPosition() {
    tree.file("two.lua", """
        --[[
          two: a script with two keys.
          KEYS:
            1 wait     LIST
            2 metricsFailed LIST  (per-minute counts)
          ARGV:
            none
          Returns:
            nil
          Events:
            none
        ]]
        return KEY.metricsFailed
        """);

    Script script = tree.catalog().get("two");

    assertThat(script.namedSource()).contains("]]\nlocal KEY = {wait = KEYS[1], metricsFailed = KEYS[2]}"
        + " -- generated from the header's KEYS\nreturn KEY.metricsFailed\n");
  }

  @Test
  void theArgTablesNameEveryHeaderArgumentAndWhereTheRepeatedTailStarts() {
    tree.file("args.lua", """
        --[[
          args: a script with named arguments and a repeated tail.
          KEYS:
            1 wait          LIST
          ARGV:
            1 now           epoch millis
            2 repeat        a Lua keyword as a name
            3 record...     the records
          Returns:
            nil
          Events:
            none
        ]]
        return ARG.now
        """);

    Script script = tree.catalog().get("args");

    assertThat(script.namedSource()).contains("-- generated from the header's KEYS\n"
        + "local ARG = {now = ARGV[1], [\"repeat\"] = ARGV[2]} -- generated from the header's ARGV\n"
        + "local ARG_FROM = {record = 3} -- where the header's repeated ARGV starts\nreturn ARG.now\n");
  }

  @Test
  void namesRunAsPositionsAndUnusedTablesAreNotBuilt() {
    tree.file("args.lua", """
        --[[
          args: a script with named keys, arguments and a repeated tail.
          KEYS:
            1 wait          LIST
          ARGV:
            1 now           epoch millis
            2 repeat        a Lua keyword as a name
            3 record...     the records
          Returns:
            nil
          Events:
            none
        ]]
        -- KEY.wait in a comment changes nothing
        return {KEY.wait, ARG.now, ARG["repeat"], ARG_FROM.record}
        """);
    tree.file("whole.lua", """
        --[[
          whole: a script that passes ARG on whole.
          KEYS:
            1 wait          LIST
          ARGV:
            1 now           epoch millis
          Returns:
            nil
          Events:
            none
        ]]
        local function now(arg) return arg.now end
        return {KEY.wait, now(ARG)}
        """);

    Script args = tree.catalog().get("args");
    Script whole = tree.catalog().get("whole");

    assertThat(args.source()).endsWith("]]\n-- KEYS[1] in a comment changes nothing\n"
        + "return {KEYS[1], ARGV[1], ARGV[2], 3}\n");
    assertThat(args.sha1()).isEqualTo(Sha1.hex(args.source()));
    assertThat(whole.source()).endsWith("]]\nlocal ARG = {now = ARGV[1]} -- generated from the header's ARGV\n"
        + "local function now(arg) return arg.now end\nreturn {KEYS[1], now(ARG)}\n");
  }

  @Test
  void includesOnceEvenWhenAskedTwice() {
    tree.include("helper", "local function helper() end\n")
        .script("main", "--- @include \"helper\"\n  ---  @include \"helper\"  \nreturn 1\n");

    Script script = tree.catalog().get("main");

    assertThat(script.namedSource()).containsOnlyOnce("local function helper()");
    assertThat(script.namedSource()).doesNotContain("@include");
    assertThat(script.includes()).containsExactly("helper");
  }

  @Test
  void expandsNestedIncludesDepthFirstAndDropsRepeats() {
    // main -> a, b; a -> c; b -> c (already in, dropped).
    tree.include("c", "local function c() end\n")
        .include("a", "--- @include \"c\"\nlocal function a() end\n")
        .include("b", "--- @include \"c\"\nlocal function b() end\n")
        .script("main", "--- @include \"a\"\n--- @include \"b\"\nreturn 1\n");

    Script script = tree.catalog().get("main");

    assertThat(script.includes()).containsExactly("a", "c", "b");
    assertThat(script.namedSource()).isEqualTo(LuaTree.header("main") + LuaTree.KEY_TABLE
        + "--[[ a: fixture include ]]\n"
        + "--[[ c: fixture include ]]\nlocal function c() end\n"
        + "local function a() end\n"
        + "--[[ b: fixture include ]]\n"
        + "local function b() end\n"
        + "return 1\n");
  }

  @Test
  void eachScriptGetsItsOwnCopyOfAnInclude() {
    tree.include("helper", "local function helper() end\n")
        .script("one", "--- @include \"helper\"\n")
        .script("two", "--- @include \"helper\"\n");
    ScriptCatalog catalog = tree.catalog();

    assertThat(catalog.get("one").source()).contains("local function helper()");
    assertThat(catalog.get("two").source()).contains("local function helper()");
  }

  @Test
  void rejectsACycleWithTheChain() {
    tree.include("a", "--- @include \"b\"\n")
        .include("b", "--- @include \"a\"\n")
        .script("main", "--- @include \"a\"\n");

    assertThatThrownBy(() -> tree.catalog().get("main"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("include cycle: a -> b -> a");
  }

  @Test
  void rejectsAnIncludeOfItself() {
    tree.include("a", "--- @include \"a\"\n").script("main", "--- @include \"a\"\n");

    assertThatThrownBy(() -> tree.catalog().get("main"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("include cycle: a -> a");
  }

  @Test
  void rejectsAnUnknownIncludeNamingItAndTheRequester() {
    tree.script("main", "--- @include \"nowhere\"\n");

    assertThatThrownBy(() -> tree.catalog().get("main"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown include 'nowhere'")
        .hasMessageContaining("main.lua");
  }

  @Test
  void rejectsAnUnknownNestedIncludeNamingTheIncludeFileThatAsked() {
    tree.include("a", "--- @include \"nowhere\"\n").script("main", "--- @include \"a\"\n");

    assertThatThrownBy(() -> tree.catalog().get("main"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown include 'nowhere'")
        .hasMessageContaining("includes/a.lua");
  }

  @Test
  void anIncludeMustBeInTheIncludesDirectory() {
    tree.script("other", "return 2\n")
        .file("elsewhere/helper.lua", "local function helper() end\n")
        .script("main", "--- @include \"other\"\n");
    tree.file("main2.lua", LuaTree.header("main2") + "--- @include \"../elsewhere/helper\"\n");
    ScriptCatalog catalog = tree.catalog();

    assertThatThrownBy(() -> catalog.get("main"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown include 'other'");
    assertThatThrownBy(() -> catalog.get("main2"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown include '../elsewhere/helper'");
  }

  @Test
  void rejectsAnUnknownScriptNamingIt() {
    tree.include("helper", "local function helper() end\n");

    assertThatThrownBy(() -> tree.catalog().get("missing"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown script 'missing'");
    // An include is not a script, and a path is not a name.
    assertThatThrownBy(() -> tree.catalog().get("includes/helper"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown script 'includes/helper'");
  }

  @Test
  void rejectsAScriptWithoutHeaderBlock() {
    tree.file("bare.lua", "return 1\n");

    assertThatThrownBy(() -> tree.catalog().get("bare"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bare")
        .hasMessageContaining("missing header block");
  }

  @Test
  void windowsLineEndingsYieldTheSameSha() {
    String text = LuaTree.header("main") + "--- @include \"helper\"\nreturn 1\n";
    tree.include("helper", "local function helper() end\n").file("main.lua", text);
    new LuaTree(dir.resolve("crlf"))
        .file("includes/helper.lua", "--[[ helper: fixture include ]]\r\nlocal function helper() end\r\n")
        .file("main.lua", text.replace("\n", "\r\n"));

    Script lf = tree.catalog().get("main");
    Script crlf = ScriptCatalog.directory(dir.resolve("crlf")).get("main");

    assertThat(crlf.source()).isEqualTo(lf.source());
    assertThat(crlf.sha1()).isEqualTo(lf.sha1());
  }

  @Test
  void cachesLoadedScripts() {
    tree.script("main", "return 1\n");
    ScriptCatalog catalog = tree.catalog();

    assertThat(catalog.get("main")).isSameAs(catalog.get("main"));
  }

  @Test
  void aDirectoryCatalogNamesItsScriptsButNotItsIncludes() {
    tree.script("b", "")
        .script("a", "")
        .include("helper", "")
        .file("notes.txt", "not a script");

    assertThat(tree.catalog().names()).containsExactly("a", "b");
  }
}
