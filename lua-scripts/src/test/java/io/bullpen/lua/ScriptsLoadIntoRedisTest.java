package io.bullpen.lua;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.redisson.api.RScript;
import org.redisson.client.codec.StringCodec;

/**
 * Every expanded script compiles in a real Redis (SCRIPT LOAD runs the Lua compiler, so a syntax
 * error fails the build) and Redis computes the same SHA-1 the catalog uses for EVALSHA.
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
}
