package io.bullpen.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bullpen.internal.ScriptTypes.FetchArgs;
import io.bullpen.lua.ScriptCatalog;
import io.bullpen.lua.ScriptHeader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Java builds a script's fixed ARGV by the header's names, in the header's order. */
class ScriptArgsTest {

    private final ScriptArgs args = new ScriptArgs();

    @Test
    void putsEachArgumentWhereTheHeaderNamesIt() {
        List<Object> built = ScriptReplies.fetchArgs(args.named("moveToFinished")
                .set("now", "2").set("jobKeyPrefix", "p:"), new FetchArgs(5, "tok", 30_000, "w1", 7, 8, 9))
                .into(new ArrayList<>());
        List<String> names = ScriptCatalog.classpath().get("moveToFinished").header().argv().stream()
                .filter(e -> !e.repeated()).map(ScriptHeader.Entry::name).toList();

        assertThat(names).startsWith("jobKeyPrefix", "now", "count", "token", "lockMs", "workerName");
        assertThat(built).hasSize(names.size());
        assertThat(built.get(names.indexOf("jobKeyPrefix"))).isEqualTo("p:");
        assertThat(built.get(names.indexOf("now"))).isEqualTo("2");
        assertThat(built.get(names.indexOf("count"))).isEqualTo("5");
        assertThat(built.get(names.indexOf("token"))).isEqualTo("tok");
        assertThat(built.get(names.indexOf("workerName"))).isEqualTo("w1");
        assertThat(built.get(names.indexOf("maxStalled"))).isEqualTo("9");
    }

    @Test
    void refusesANameTheHeaderDoesNotDeclare() {
        assertThatThrownBy(() -> args.named("moveToActive").set("record", "x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("moveToActive").hasMessageContaining("'record'");
    }

    @Test
    void refusesToBuildWithAnArgumentMissing() {
        assertThatThrownBy(() -> args.named("addJob").set("now", "1").into(new ArrayList<>()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("addJob").hasMessageContaining("'jobKeyPrefix'");
    }

    @Test
    void buildsARecordByTheFieldNamesOfItsKind() {
        List<Object> built = new ArrayList<>();
        args.record("moveToFinished", "started").set("lockToken", "t").set("jobId", "7").into(built);

        assertThat(built).containsExactly("started", "7", "t");
    }

    @Test
    void refusesAFieldOrKindTheHeaderDoesNotDeclareAndAnUnsetField() {
        assertThatThrownBy(() -> args.record("moveToFinished", "started").set("returnValue", "1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'returnValue'");
        assertThatThrownBy(() -> args.record("moveToFinished", "bogus"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'bogus'");
        assertThatThrownBy(() -> args.record("moveToFinished", "started").set("jobId", "7").into(new ArrayList<>()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("'lockToken'");
    }
}
