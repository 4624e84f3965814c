package io.bullpen.lua;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A header's Records: section lays out a repeated tail; scripts name its fields, resolved at load. */
class RecordFieldsTest {

  private static final String SCRIPT = """
      --[[
        demo: reads records.
        KEYS:
          1 wait  LIST  <prefix>:{<queue>}:wait
        ARGV:
          1 record...   records
        Records:
          done: jobId value
            extra
          note: jobId
        Returns:
          nothing
        Events:
          none
      ]]
      local i = ARG_FROM.record
      local v = ARGV[i + FIELD.done.value] .. ARGV[i + FIELD.done.extra]
      i = i + STRIDE.done + STRIDE.note
      """;

  @Test
  void theSectionGivesEachKindItsFieldsInOrder() {
    ScriptHeader header = ScriptHeader.parse("demo", SCRIPT);

    assertThat(header.problems()).isEmpty();
    assertThat(header.records()).containsOnlyKeys("done", "note");
    assertThat(header.records().get("done")).containsExactly("jobId", "value", "extra");
    assertThat(header.records().get("note")).containsExactly("jobId");
  }

  @Test
  void fieldsBecomeOffsetsAndStridesRecordLengths() {
    String text = ScriptCatalog.withRecordFields("demo", SCRIPT, ScriptHeader.parse("demo", SCRIPT));

    assertThat(text).contains("ARGV[i + 2] .. ARGV[i + 3]").contains("i = i + 4 + 2").doesNotContain("FIELD.");
  }

  @Test
  void anUnknownFieldOrKindFailsTheLoadNamingIt() {
    ScriptHeader header = ScriptHeader.parse("demo", SCRIPT);
    for (String bad : List.of("FIELD.done.missing", "FIELD.gone.jobId", "STRIDE.gone")) {
      assertThatThrownBy(() -> ScriptCatalog.withRecordFields("demo", SCRIPT + bad + "\n", header))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("demo").hasMessageContaining(bad);
    }
  }

  @Test
  void aDuplicateFieldOrKindIsAHeaderProblem() {
    String dup = SCRIPT.replace("note: jobId", "note: jobId jobId\n    done: x");

    assertThat(ScriptHeader.parse("demo", dup).problems())
        .anyMatch(p -> p.contains("duplicate field 'jobId'"))
        .anyMatch(p -> p.contains("duplicate kind 'done'"));
  }

  @Test
  void moveToFinishedKindsThatShareAnOpeningLayItOutAlike() {
    // acceptFailedAttempt reads retry records by failed's offsets, acceptUnusedAttempt
    // waitChildren records by step's: the shorter kind must be the longer one's prefix.
    java.util.Map<String, List<String>> records = ScriptCatalog.classpath().get("moveToFinished").header().records();

    assertThat(records.get("retry")).startsWith(records.get("failed").toArray(String[]::new));
    assertThat(records.get("step")).startsWith(records.get("waitChildren").subList(0, 5).toArray(String[]::new));
    assertThat(records.get("waitChildren").subList(0, 5)).containsExactly("jobId", "lockToken", "group", "startedOn", "children");
  }
}
