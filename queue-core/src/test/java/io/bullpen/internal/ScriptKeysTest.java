package io.bullpen.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bullpen.lua.ScriptCatalog;
import io.bullpen.lua.ScriptHeader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Scripts get their KEYS by the names in their headers, never by hand-kept positions. */
class ScriptKeysTest {

    /** Header key names that a call binds itself: keys of one job, scheduler or chosen state. */
    private static final Set<String> BOUND_PER_CALL = Set.of("job", "logs", "scheduler", "source", "state", "metrics", "dedup");

    private final KeyScheme tagged = KeyScheme.of("bp", "orders", "flow-7");

    @Test
    void everyHeaderKeyNameIsAQueueKeyOrBoundPerCall() {
        ScriptCatalog catalog = ScriptCatalog.classpath();
        SoftAssertions soft = new SoftAssertions();
        for (String script : catalog.names()) {
            for (ScriptHeader.Entry key : catalog.get(script).header().keys()) {
                if (!BOUND_PER_CALL.contains(key.name())) {
                    soft.assertThatCode(() -> tagged.key(key.name())).as("%s key %s", script, key.name())
                            .doesNotThrowAnyException();
                }
            }
        }
        soft.assertAll();
    }

    @Test
    void everyDeclaredKeyCarriesTheQueuesHashTag() {
        ScriptCatalog catalog = ScriptCatalog.classpath();
        ScriptKeys keys = new ScriptKeys(tagged);
        SoftAssertions soft = new SoftAssertions();
        for (String script : catalog.names()) {
            for (ScriptHeader.Entry key : catalog.get(script).header().keys()) {
                String resolved = BOUND_PER_CALL.contains(key.name()) ? null : tagged.key(key.name());
                if (resolved != null) {
                    soft.assertThat(resolved).as("%s key %s", script, key.name()).startsWith("bp:{flow-7}:{orders}:");
                }
            }
            if (catalog.get(script).header().keys().stream().noneMatch(e -> BOUND_PER_CALL.contains(e.name()))) {
                soft.assertThat(keys.of(script)).as("%s", script).hasSize(catalog.get(script).keyCount());
            }
        }
        soft.assertAll();
    }

    @Test
    void keysFollowTheHeaderOrderWithBoundNamesInPlace() {
        ScriptKeys keys = new ScriptKeys(tagged);

        assertThat(keys.of("retryJob", "source", tagged.failed())).containsExactly(tagged.failed(), tagged.waitList(),
                tagged.prioritized(), tagged.marker(), tagged.meta(), tagged.events(), tagged.groups(), tagged.groupsReady(),
                tagged.groupsLimited());
        assertThat(keys.of("moveToActive")).containsExactly(tagged.waitList(), tagged.prioritized(), tagged.delayed(),
                tagged.leases(), tagged.failed(), tagged.marker(), tagged.meta(), tagged.events(), tagged.fence(),
                tagged.completed(), tagged.metrics("completed"), tagged.metrics("failed"), tagged.schedulers(),
                tagged.id());
    }

    @Test
    void aNameWithNoQueueKeyFailsNamingIt() {
        assertThatThrownBy(() -> tagged.key("waiting")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'waiting'");
    }

    @Test
    void aHeaderNameWithNoKeyFailsTheScriptsFirstCall(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("odd.lua"), """
                --[[
                  odd: a script whose header names a key the scheme does not have.
                  KEYS:
                    1 wait     LIST
                    2 backlog  LIST
                  ARGV:
                    none
                  Returns:
                    nil
                  Events:
                    none
                ]]
                return 1
                """);
        ScriptKeys keys = new ScriptKeys(tagged, ScriptCatalog.directory(dir));

        assertThatThrownBy(() -> keys.of("odd")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'backlog'");
    }

    @Test
    void bindingANameTheHeaderLacksFails() {
        ScriptKeys keys = new ScriptKeys(tagged);

        assertThatThrownBy(() -> keys.of("getCounts", "job", tagged.job("1")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("getCounts").hasMessageContaining("'job'");
    }

    @Test
    void unboundListsAreBuiltOnce() {
        ScriptKeys keys = new ScriptKeys(tagged);

        assertThat(keys.of("moveToFinished")).isSameAs(keys.of("moveToFinished"));
    }
}
