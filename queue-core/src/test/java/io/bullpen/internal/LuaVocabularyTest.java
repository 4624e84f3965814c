package io.bullpen.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.JobState;
import io.bullpen.MetricsType;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The Lua scripts and the Java code speak one vocabulary: every hash field a script reads or
 * writes is declared in {@link JobFields}, {@link MetaFields} or {@link SchedulerFields} (the
 * table of the hash it touches), every key a script names is one {@link KeyScheme} builds, and
 * every state a script answers with is a {@link JobState} label. Names declared in Java and used
 * by no script are reported too. The scripts are read from {@code ../lua-scripts/src/main/lua}
 * (surefire runs with the module as working directory); {@link LuaVocabulary} does the parsing.
 */
class LuaVocabularyTest {

    private static final Path LUA = Path.of("../lua-scripts/src/main/lua");

    private static final LuaVocabulary SCRIPTS = LuaVocabulary.read(LUA);

    @Test
    void theScriptsAreFoundAndUseHashFields() {
        assertThat(SCRIPTS.fieldUses()).as("hash fields named in hash commands").hasSizeGreaterThan(40);
        assertThat(SCRIPTS.fieldUses()).extracting(LuaVocabulary.FieldUse::kind)
                .contains(LuaVocabulary.HashKind.values());
    }

    @Test
    void everyHashCommandNamesAHashThisTestCanTell() {
        assertThat(SCRIPTS.problems()).isEmpty();
    }

    @Test
    void everyHashFieldAScriptUsesIsDeclaredInJava() {
        List<String> undeclared = SCRIPTS.fieldUses().stream()
                .filter(use -> !declared(use))
                .map(use -> use + " is not declared in " + table(use.kind()).getSimpleName())
                .toList();
        assertThat(undeclared).as("fields the scripts use that the Java table lacks").isEmpty();
    }

    @Test
    void everyDeclaredHashFieldIsUsedByAScript() {
        List<String> unused = Stream.of(LuaVocabulary.HashKind.values())
                .flatMap(kind -> names(table(kind)).stream()
                        .filter(name -> !SCRIPTS.stringLiterals().contains(name))
                        .map(name -> table(kind).getSimpleName() + " \"" + name + "\""))
                .toList();
        assertThat(unused).as("declared fields no script mentions").isEmpty();
    }

    @Test
    void everyKeyAScriptNamesIsAKeyTheKeySchemeBuilds() {
        Set<String> suffixes = keySuffixes();
        List<String> unknown = SCRIPTS.keySuffixes().stream()
                .filter(use -> !suffixes.contains(use.name()))
                .map(use -> use + " is not a key suffix of KeyScheme " + suffixes)
                .toList();
        assertThat(unknown).isEmpty();
    }

    @Test
    void everyStateAScriptAnswersIsAJobStateLabel() {
        Set<String> labels = Arrays.stream(JobState.values()).map(JobState::label).collect(Collectors.toSet());
        assertThat(SCRIPTS.stateAnswers()).as("states returned by getState, pushReady and moveToFinished")
                .isNotEmpty()
                .allSatisfy(use -> assertThat(labels).as(use.toString()).contains(use.name()));
    }

    /** A literal field must be declared; a field built as {@code "lit" .. x} needs a declared prefix. */
    private static boolean declared(LuaVocabulary.FieldUse use) {
        Set<String> names = names(table(use.kind()));
        if (!use.prefix()) {
            return names.contains(use.name());
        }
        return names.contains(use.name()) && use.name().endsWith(":");
    }

    private static Class<?> table(LuaVocabulary.HashKind kind) {
        return switch (kind) {
            case JOB -> JobFields.class;
            case META -> MetaFields.class;
            case SCHEDULER -> SchedulerFields.class;
            case GROUP -> GroupFields.class;
        };
    }

    /** @return the values of the table's public static String constants */
    static Set<String> names(Class<?> table) {
        Set<String> names = new TreeSet<>();
        for (Field f : table.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers()) && Modifier.isPublic(f.getModifiers()) && f.getType() == String.class) {
                try {
                    names.add((String) f.get(null));
                } catch (IllegalAccessException e) {
                    throw new AssertionError(e);
                }
            }
        }
        return names;
    }

    /**
     * Every key suffix a {@link KeyScheme} builds, with ids written {@code <id>} as the script
     * headers write them; {@code <state>} stands for any state key and {@code <kind>} for any
     * metrics kind.
     */
    private static Set<String> keySuffixes() {
        KeyScheme k = new KeyScheme("p", "q");
        Set<String> keys = new TreeSet<>(List.of(k.marker(), k.meta(), k.events(), k.id(), k.fence(),
                k.schedulers(), k.scheduler("<id>"), k.schedulerPrefix(), k.jobPrefix(), k.job("<id>"),
                k.logs("<id>"), k.metrics("<kind>"), k.groups(), k.groupsReady(), k.groupsLimited(),
                k.group(""), k.groupMeta(""), k.group("<g>"), k.groupMeta("<g>"), k.workers(), k.workersSeen(),
                k.dedup(""), k.dedup("<id>"), k.dedupNext("<id>"), k.result(""), k.result("<id>"), k.flowOutbox(), k.flowPrefix(),
                k.flowsPending(), k.pendingChildren("<id>"), k.children("<id>"), k.childResults("<id>"), k.expiry()));
        for (JobState state : JobState.values()) {
            if (state != JobState.UNKNOWN) {
                keys.add(k.stateKey(state));
            }
        }
        for (MetricsType type : MetricsType.values()) {
            keys.add(k.metrics(type.label()));
        }
        Set<String> suffixes = keys.stream().map(key -> key.substring(k.base().length()))
                .collect(Collectors.toCollection(TreeSet::new));
        suffixes.add("<state>");
        return suffixes;
    }

    @Test
    void theParserSeesThroughCommentsAndStrings() throws IOException {
        Path dir = Files.createTempDirectory("lua-vocab");
        try {
            Files.writeString(dir.resolve("x.lua"), String.join("\n",
                    "--[[ x: a script",
                    "  KEYS:",
                    "    1 meta  HASH  <prefix>:{<queue>}:meta",
                    "    2 job   HASH  <prefix>:{<queue>}:job:<id>",
                    "]]",
                    "-- redis.call(\"HSET\", jobKey, \"commented\", 1)",
                    "local countField = \"mc:\" .. ARGV[1]",
                    "local fields = {\"name\", ARGV[2], \"data\", \"x,y\"}",
                    "fields[#fields + 1] = \"opts\"",
                    "fields[#fields + 1] = ARGV[3]",
                    "redis.call(\"HSET\", KEYS[2], unpack(fields))",
                    "redis.call(\"HINCRBY\", KEYS[1], countField, 1)",
                    "redis.call(\"HMGET\", q.base .. \"scheduler:\" .. id, \"repeat\", \"next\")",
                    "local jobKey = q.jobPrefix .. id",
                    "redis.call(\"HSET\", jobKey, \"atm\", \"0\", \"stc\", tostring(f(1, 2)))",
                    "return \"waiting\""));
            LuaVocabulary v = LuaVocabulary.read(dir);
            assertThat(v.fieldUses()).extracting(Object::toString).containsExactlyInAnyOrder(
                    "x.lua:11 JOB \"name\"", "x.lua:11 JOB \"data\"", "x.lua:11 JOB \"opts\"",
                    "x.lua:12 META \"mc:\" .. …",
                    "x.lua:13 SCHEDULER \"repeat\"", "x.lua:13 SCHEDULER \"next\"",
                    "x.lua:15 JOB \"atm\"", "x.lua:15 JOB \"stc\"");
            assertThat(v.keySuffixes()).extracting(LuaVocabulary.NameUse::name)
                    .containsExactlyInAnyOrder("meta", "job:<id>", "scheduler:");
            assertThat(v.stateAnswers()).isEmpty();  // only getState, pushReady and moveToFinished answer states
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
