package io.bullpen.lua;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bullpen.lua.ScriptHeader.Entry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ScriptHeaderTest {

  private static final String COMPLETE = """
      --[[
        addJob: adds one or more jobs to wait, prioritized or delayed.
        Duplicates are reported, not added.

        KEYS:
          1 wait          LIST  <prefix>:{<queue>}:wait
          2 prioritized   ZSET  <prefix>:{<queue>}:prioritized
        ARGV:
          1 jobKeyPrefix  <prefix>:{<queue>}:job:
                          (job keys are built from it: same slot)
          2 now           epoch millis
          3 id...         then pairs of id, token
        Returns:
          {{jobId, 1|0}, ...}  1 = added, 0 = duplicate custom id
        Events:
          added, duplicated
      ]]
      --- @include "emitEvent"

      return 1
      """;

  @Test
  void parsesACompleteHeader() {
    ScriptHeader header = ScriptHeader.parse("addJob", COMPLETE);

    assertThat(header.problems()).isEmpty();
    assertThat(header.name()).isEqualTo("addJob");
    assertThat(header.description()).isEqualTo(
        "adds one or more jobs to wait, prioritized or delayed.\nDuplicates are reported, not added.");
    assertThat(header.keys()).containsExactly(
        new Entry(1, "wait", "LIST  <prefix>:{<queue>}:wait"),
        new Entry(2, "prioritized", "ZSET  <prefix>:{<queue>}:prioritized"));
    assertThat(header.keyCount()).isEqualTo(2);
    assertThat(header.argv()).containsExactly(
        new Entry(1, "jobKeyPrefix", "<prefix>:{<queue>}:job: (job keys are built from it: same slot)"),
        new Entry(2, "now", "epoch millis"),
        new Entry(3, "id...", "then pairs of id, token"));
    assertThat(header.argv()).extracting(Entry::repeated).containsExactly(false, false, true);
    assertThat(header.returns()).isEqualTo("{{jobId, 1|0}, ...}  1 = added, 0 = duplicate custom id");
    assertThat(header.events()).isEqualTo("added, duplicated");
  }

  @Test
  void acceptsNoneForKeysArgvAndEvents() {
    ScriptHeader header = ScriptHeader.parse("ping", """
        --[[
          ping: answers pong.
          KEYS:
            none
          ARGV:
            none
          Returns:
            "pong"
          Events:
            none
        ]]
        return "pong"
        """);

    assertThat(header.problems()).isEmpty();
    assertThat(header.keyCount()).isZero();
    assertThat(header.argv()).isEmpty();
    assertThat(header.events()).isEqualTo("none");
  }

  @Test
  void windowsLineEndingsParseTheSame() {
    ScriptHeader crlf = ScriptHeader.parse("addJob", COMPLETE.replace("\n", "\r\n"));

    assertThat(crlf.problems()).isEmpty();
    assertThat(crlf.keys()).isEqualTo(ScriptHeader.parse("addJob", COMPLETE).keys());
  }

  @Test
  void rejectsATextWithoutHeaderBlock() {
    assertThatThrownBy(() -> ScriptHeader.parse("addJob", "-- addJob: no block\nreturn 1\n"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("addJob")
        .hasMessageContaining("missing header block");
  }

  @Test
  void rejectsAnUnclosedHeaderBlock() {
    assertThatThrownBy(() -> ScriptHeader.parse("addJob", "--[[\n  addJob: x\nreturn 1\n"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("addJob")
        .hasMessageContaining("not closed");
  }

  @Test
  void reportsAMissingDescription() {
    ScriptHeader header = parse(COMPLETE.replace(
        "addJob: adds one or more jobs to wait, prioritized or delayed.\n  Duplicates are reported, not added.\n",
        "addJob:\n"));

    assertThat(header.problems()).containsExactly("missing description");
  }

  @Test
  void reportsAMissingNameLine() {
    ScriptHeader header = parse("""
        --[[
          KEYS:
            1 wait  LIST
          ARGV:
            none
          Returns:
            nil
          Events:
            none
        ]]
        """);

    assertThat(header.problems())
        .containsExactly("missing '<name>: <description>' line", "missing description");
  }

  @Test
  void reportsAHeaderNameThatDiffersFromTheFileName() {
    ScriptHeader header = ScriptHeader.parse("addJobs", COMPLETE);

    assertThat(header.name()).isEqualTo("addJob");
    assertThat(header.problems()).containsExactly("header names 'addJob' but the file is 'addJobs.lua'");
  }

  @ParameterizedTest
  @ValueSource(strings = {"KEYS", "ARGV", "Returns", "Events"})
  void reportsAMissingSection(String title) {
    ScriptHeader header = parse(COMPLETE.replace("  " + title + ":\n", "  " + title + "-gone\n"));

    assertThat(header.problems()).contains("missing " + title + ": section");
  }

  @Test
  void reportsEmptySections() {
    ScriptHeader header = parse("""
        --[[
          addJob: adds jobs.
          KEYS:
          ARGV:
          Returns:
          Events:
        ]]
        """);

    assertThat(header.problems()).containsExactly(
        "KEYS: section has no entries (write 'none' if there are none)",
        "ARGV: section has no entries (write 'none' if there are none)",
        "Returns: section is empty",
        "Events: section is empty (write 'none' if the script emits no events)");
  }

  @Test
  void reportsAGapInTheNumbering() {
    ScriptHeader header = parse(COMPLETE.replace("    2 prioritized", "    3 prioritized"));

    assertThat(header.problems()).containsExactly("KEYS: entries must be numbered 1..2 in order, found 1, 3");
  }

  @Test
  void reportsNumberingOutOfOrder() {
    ScriptHeader header = parse(COMPLETE
        .replace("    1 jobKeyPrefix", "    2 jobKeyPrefix")
        .replace("    2 now", "    1 now"));

    assertThat(header.problems()).containsExactly("ARGV: entries must be numbered 1..3 in order, found 2, 1, 3");
  }

  @Test
  void reportsNumberingThatStartsAtZero() {
    ScriptHeader header = parse(COMPLETE
        .replace("    1 wait", "    0 wait")
        .replace("    2 prioritized", "    1 prioritized"));

    assertThat(header.problems()).containsExactly("KEYS: entries must be numbered 1..2 in order, found 0, 1");
  }

  @Test
  void reportsDuplicateNames() {
    ScriptHeader header = parse(COMPLETE
        .replace("2 prioritized", "2 wait       ")
        .replace("3 id...", "3 now..."));

    assertThat(header.problems()).containsExactly(
        "KEYS: duplicate name 'wait'", "ARGV: duplicate name 'now'");
  }

  @Test
  void reportsARepeatedEntryThatIsNotLastOrIsAKey() {
    ScriptHeader header = parse(COMPLETE
        .replace("2 prioritized", "2 prioritized...")
        .replace("2 now", "2 now..."));

    assertThat(header.problems()).containsExactly(
        "KEYS: 'prioritized...' cannot repeat (numkeys is fixed)",
        "ARGV: 'now...' repeats, so it must be the last entry");
  }

  @Test
  void reportsTextBeforeTheFirstEntry() {
    ScriptHeader header = parse(COMPLETE.replace("  KEYS:\n", "  KEYS:\n    all in one slot\n"));

    assertThat(header.problems()).containsExactly("KEYS: text before the first numbered entry: 'all in one slot'");
  }

  @Test
  void reportsNoneNextToEntries() {
    ScriptHeader header = parse(COMPLETE.replace("  KEYS:\n", "  KEYS:\n    none\n"));

    assertThat(header.problems()).containsExactly("KEYS: says 'none' but has entries");
  }

  @Test
  void reportsADuplicateSection() {
    ScriptHeader header = parse(COMPLETE.replace("  Events:\n", "  Events:\n    added\n  Events:\n"));

    assertThat(header.problems()).containsExactly("duplicate Events: section");
  }

  @Test
  void reportsEveryProblemAtOnce() {
    ScriptHeader header = ScriptHeader.parse("other", """
        --[[
          addJob:
          KEYS:
            2 wait
          Returns:
            nil
        ]]
        """);

    assertThat(header.problems()).containsExactly(
        "header names 'addJob' but the file is 'other.lua'",
        "missing description",
        "KEYS: entries must be numbered 1..1 in order, found 2",
        "missing ARGV: section",
        "missing Events: section");
  }

  private static ScriptHeader parse(String text) {
    return ScriptHeader.parse("addJob", text);
  }
}
