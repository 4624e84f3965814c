package io.bullpen.lua;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.Resp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.redisson.api.RScript;
import org.redisson.client.codec.StringCodec;

/**
 * Every expanded script compiles in a real Redis (SCRIPT LOAD runs the Lua compiler, so a syntax
 * error fails the build) and Redis computes the same SHA-1 the catalog uses for EVALSHA; and
 * every script loads as a function library (FUNCTION LOAD runs the library's top level: its
 * function's upvalues within Lua's limit of 60, no call to Redis there) that registers the
 * function its name says, which runs with KEYS and ARGV as EVALSHA gives them.
 */
@BullpenTest
class ScriptsLoadIntoRedisTest {
    private static final ScriptCatalog CATALOG = ScriptCatalog.directory(Path.of("src/main/lua"));

    @TestFactory
    Stream<DynamicTest> everyScriptLoadsWithTheCatalogsSha(BullpenTestContext ctx) {
        RScript redisScript = ctx.redisson().getScript(StringCodec.INSTANCE);
        return CATALOG.names().stream().map(name -> dynamicTest(name, () -> {
            Script script = CATALOG.get(name);
            assertThat(redisScript.scriptLoad(script.source())).isEqualTo(script.sha1());
            assertThat(redisScript.scriptExists(script.sha1())).containsExactly(true);
        }));
    }

    @TestFactory
    Stream<DynamicTest> everyScriptLoadsAsAFunctionLibrary(BullpenTestContext ctx) throws Exception {
        ctx.redis().assumeNotCluster("FUNCTION LOAD and FUNCTION LIST go to one node");
        return CATALOG.names().stream().map(name -> dynamicTest(name, () -> {
            Script script = CATALOG.get(name);
            assertThat(script.functionName()).isEqualTo("bullpen_" + script.sha1());
            assertThat(Resp.text(ctx.redis().uri(), "FUNCTION", "LOAD", "REPLACE", script.functionLibrary()))
                    .isEqualTo(script.functionName());
            assertThat(Resp.text(ctx.redis().uri(), "FUNCTION", "LIST", "LIBRARYNAME", script.functionName()))
                    .contains(script.functionName());
        }));
    }

    @Test
    void aFunctionSeesKeysAndArgvAsEvalShaDoes(BullpenTestContext ctx) throws Exception {
        ctx.redis().assumeNotCluster("the two keys are in different slots");
        Path dir = Files.createTempDirectory("lua");
        Files.createDirectories(dir.resolve("includes"));
        Files.writeString(dir.resolve("includes/both.lua"), "--[[\n  both: KEYS[1] and ARGV[1]\n]]\n"
                + "local constant = {\"a\"}\nlocal function both()\n  return {KEYS[1], ARGV[1], constant[1]}\nend\n");
        Files.writeString(dir.resolve("echo.lua"), "--[[\n  echo\n  KEYS:\n    1 k  STRING  a key\n  ARGV:\n"
                + "    1 v  a value\n  Returns: the key, the value, a constant\n]]\n--- @include \"both\"\n\nreturn both()\n");
        Script script = ScriptCatalog.directory(dir).get("echo");
        assertThat(Resp.text(ctx.redis().uri(), "FUNCTION", "LOAD", "REPLACE", script.functionLibrary()))
                .isEqualTo(script.functionName());
        assertThat(script.functionLibrary("allow-oom", "no-cluster"))
                .contains("flags = {'allow-oom', 'no-cluster'}").startsWith("#!lua name=" + script.functionName() + "\n");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> script.functionLibrary("x'}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("x'}");
        for (String value : List.of("one", "two")) {
            assertThat(Resp.call(ctx.redis().host(), ctx.redis().port(), "FCALL", script.functionName(), "1", "key", value))
                    .isEqualTo(List.of("key", value, "a"));
            assertThat(Resp.call(ctx.redis().host(), ctx.redis().port(), "EVAL", script.source(), "1", "key", value))
                    .isEqualTo(List.of("key", value, "a"));
        }
    }
}
