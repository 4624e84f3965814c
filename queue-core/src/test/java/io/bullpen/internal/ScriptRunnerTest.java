package io.bullpen.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.bullpen.internal.ScriptTypes.AddResult;
import io.bullpen.internal.ScriptTypes.NewJob;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.RedisKind;
import io.bullpen.testing.Resp;
import io.bullpen.internal.ScriptTypes.FetchArgs;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.redisson.api.redisnode.RedisNode;
import org.redisson.api.redisnode.RedisNodes;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;
import org.redisson.config.NameMapper;

/**
 * ScriptRunner sends EVALSHA (and, for the hot scripts on Redis 7+, FCALL) with its arguments as
 * bytes (not through RScript): what that must keep, and the switch between the two.
 */
@BullpenTest
class ScriptRunnerTest {

    @Test
    void aCallAfterTheScriptCacheWasFlushedLoadsTheScriptAndRunsOnce(BullpenTestContext ctx) {
        ScriptFixture f = new ScriptFixture(ctx);
        ctx.redisson().getScript().scriptFlush();

        List<AddResult> added = Futures.join(f.scripts.addJob(ScriptFixture.NOW,
                List.of(new NewJob("", "report", "{}", "", 0, 0, false))));

        assertThat(added).hasSize(1);
        assertThat(Futures.join(f.scripts.getCounts()).waiting()).as("added once, not once per attempt").isEqualTo(1);
    }

    @Test
    void argumentsReachTheScriptAsUtf8(BullpenTestContext ctx) {
        ScriptFixture f = new ScriptFixture(ctx);
        String data = "{\"text\":\"caf\u00e9 \u20ac \ud83d\ude00 \u65e5\u672c\"}";

        String id = Futures.join(f.scripts.addJob(ScriptFixture.NOW,
                List.of(new NewJob("", "r\u00e9sum\u00e9", data, "", 0, 0, false)))).get(0).id();

        var hash = ctx.redisson().<String, String>getMap(f.k.job(id), StringCodec.INSTANCE).readAllMap();
        assertThat(hash).containsEntry("data", data).containsEntry("name", "r\u00e9sum\u00e9");
    }

    @Test
    void callsOfScriptsWithOtherKeysSendEachScriptsOwnKeys(BullpenTestContext ctx) {
        ScriptFixture f = new ScriptFixture(ctx);
        ScriptFixture other = new ScriptFixture(ctx);
        Scripts otherQueue = new Scripts(ctx.redisson(), new KeyScheme("bp", ctx.newQueueName()));

        for (int i = 0; i < 3; i++) {
            Futures.join(f.scripts.addJob(ScriptFixture.NOW, List.of(new NewJob("", "a", "{}", "", 0, 0, false))));
            assertThat(Futures.join(f.scripts.getCounts()).waiting()).isEqualTo(i + 1);
            assertThat(Futures.join(otherQueue.getCounts()).waiting()).isZero();
        }
        assertThat(Futures.join(other.scripts.getCounts()).waiting()).isEqualTo(3);
    }

    @Test
    void aClientsNameMapperMapsTheKeysOfAScriptCall(BullpenTestContext ctx) {
        ctx.redis().assumeNotCluster("one client of its own on a single server");
        Config config = new Config();
        config.useSingleServer().setAddress(ctx.redis().uri()).setNameMapper(new NameMapper() {
            @Override
            public String map(String name) {
                return "mapped-" + name;
            }

            @Override
            public String unmap(String name) {
                return name.substring("mapped-".length());
            }
        });
        RedissonClient mapped = Redisson.create(config);
        try {
            KeyScheme k = new KeyScheme("bp", ctx.queueName());
            Futures.join(new Scripts(mapped, k).addJob(ScriptFixture.NOW,
                    List.of(new NewJob("", "a", "{}", "", 0, 0, false))));

            assertThat(ctx.redisson().getList("mapped-" + k.key("wait"), StringCodec.INSTANCE).size()).isEqualTo(1);
            assertThat(ctx.redisson().getList(k.key("wait"), StringCodec.INSTANCE).size()).isZero();
        } finally {
            mapped.shutdown();
        }
    }

    @Test
    void theHotScriptsRunAsFunctionsAndTheOthersByEvalSha(BullpenTestContext ctx) {
        ctx.redis().assumeNotCluster("INFO commandstats of one server");
        ScriptFixture f = new ScriptFixture(ctx);
        // Warm: the first calls start loading each library (and go by EVALSHA until it is there).
        Futures.join(f.scripts.addJob(ScriptFixture.NOW, List.of(new NewJob("", "warm", "{}", "", 0, 0, false))));
        Futures.join(f.scripts.moveToActive(ScriptFixture.NOW, new FetchArgs(1, "t", 30_000, "w", 100, 0, 1)));
        Futures.join(f.scripts.getCounts());
        awaitLibraries(ctx, "addJob", "moveToActive");
        Futures.join(f.scripts.getCounts()); // a round trip after the load's reply reached the client
        long fcalls = calls(ctx.redisson(), "fcall");
        long evalShas = calls(ctx.redisson(), "evalsha");

        Futures.join(f.scripts.addJob(ScriptFixture.NOW, List.of(new NewJob("", "a", "{}", "", 0, 0, false))));
        Futures.join(f.scripts.moveToActive(ScriptFixture.NOW, new FetchArgs(1, "t", 30_000, "w", 100, 0, 1)));
        Futures.join(f.scripts.getCounts());

        assertThat(calls(ctx.redisson(), "fcall") - fcalls).as("addJob and moveToActive").isEqualTo(2);
        assertThat(calls(ctx.redisson(), "evalsha") - evalShas).as("getCounts").isEqualTo(1);
    }

    @Test
    void aCallAfterTheFunctionsWereFlushedLoadsTheLibraryAndRunsOnce(BullpenTestContext ctx) throws Exception {
        ctx.redis().assumeNotCluster("FUNCTION FLUSH and FUNCTION LIST go to one node");
        ScriptFixture f = new ScriptFixture(ctx);
        Futures.join(f.scripts.addJob(ScriptFixture.NOW, List.of(new NewJob("", "warm", "{}", "", 0, 0, false))));
        Resp.call(ctx.redis().host(), ctx.redis().port(), "FUNCTION", "FLUSH");

        List<AddResult> added = Futures.join(f.scripts.addJob(ScriptFixture.NOW,
                List.of(new NewJob("", "report", "{}", "", 0, 0, false))));

        assertThat(added).hasSize(1);
        assertThat(Futures.join(f.scripts.getCounts()).waiting()).as("added once, not once per attempt").isEqualTo(2);
        assertThat(Resp.text(ctx.redis().host(), ctx.redis().port(), "FUNCTION", "LIST"))
                .contains(io.bullpen.lua.ScriptCatalog.classpath().get("addJob").functionName());
    }

    @Test
    void aUserTheAclDeniesFunctionsGetsEveryScriptByEvalSha(BullpenTestContext ctx) throws Exception {
        assumeTrue(ctx.redis().kind() != RedisKind.EXTERNAL, "adds an ACL user to the server");
        ctx.redis().assumeNotCluster("one client of its own on a single server");
        String user = "no-functions-" + ctx.queueName();
        Resp.call(ctx.redis().host(), ctx.redis().port(), "ACL", "SETUSER", user, "on", ">secret", "~*", "&*", "+@all",
                "-fcall", "-function");
        Config config = new Config();
        config.useSingleServer().setAddress(ctx.redis().uri()).setUsername(user).setPassword("secret");
        RedissonClient limited = Redisson.create(config);
        try {
            Scripts scripts = new Scripts(limited, new KeyScheme("bp", ctx.queueName()));
            long evalShas = calls(ctx.redisson(), "evalsha");
            for (int i = 0; i < 3; i++) {
                Futures.join(scripts.addJob(ScriptFixture.NOW, List.of(new NewJob("", "a", "{}", "", 0, 0, false))));
            }
            // After NOSCRIPT too (EVALSHA's own reload).
            ctx.redisson().getScript().scriptFlush();
            Futures.join(scripts.addJob(ScriptFixture.NOW, List.of(new NewJob("", "a", "{}", "", 0, 0, false))));
            var taken = Futures.join(scripts.moveToActive(ScriptFixture.NOW, new FetchArgs(1, "t", 30_000, "w", 100, 0, 1)));

            assertThat(taken.jobs()).hasSize(1);
            assertThat(Futures.join(scripts.getCounts()).waiting()).as("each add ran once").isEqualTo(3);
            assertThat(calls(ctx.redisson(), "evalsha") - evalShas).as("4 adds, a take, the counts").isGreaterThanOrEqualTo(6);
        } finally {
            limited.shutdown();
            Resp.call(ctx.redis().host(), ctx.redis().port(), "ACL", "DELUSER", user);
        }
    }

    @Test
    void aClientLoadsEachLibraryOnceWithoutAnyCallMeetingAMissingFunction(BullpenTestContext ctx) throws Exception {
        assumeTrue(ctx.redis().kind() != RedisKind.EXTERNAL, "flushes the server's functions");
        ctx.redis().assumeNotCluster("INFO errorstats and FUNCTION FLUSH of one server");
        Resp.call(ctx.redis().host(), ctx.redis().port(), "FUNCTION", "FLUSH");
        Config config = new Config();
        config.useSingleServer().setAddress(ctx.redis().uri());
        RedissonClient fresh = Redisson.create(config);
        try {
            long failed = failedCalls(ctx.redisson(), "fcall");
            KeyScheme k = new KeyScheme("bp", ctx.queueName());
            Scripts one = new Scripts(fresh, k);
            Scripts two = new Scripts(fresh, k);
            long fcalls = calls(ctx.redisson(), "fcall");
            Futures.join(one.addJob(ScriptFixture.NOW, List.of(new NewJob("", "a", "{}", "", 0, 0, false))));
            Futures.join(two.moveToActive(ScriptFixture.NOW, new FetchArgs(1, "t", 30_000, "w", 100, 0, 1)));
            awaitLibraries(ctx, "addJob", "moveToActive");
            Futures.join(one.getCounts()); // a round trip after the load's reply reached the client
            // Loaded once for the client: the second Scripts (another queue object) calls functions at once.
            Futures.join(two.addJob(ScriptFixture.NOW, List.of(new NewJob("", "b", "{}", "", 0, 0, false))));
            Futures.join(one.moveToActive(ScriptFixture.NOW, new FetchArgs(1, "t", 30_000, "w", 100, 0, 1)));

            // Server-wide counts (another test's client may call too): at least the two after the load.
            assertThat(calls(ctx.redisson(), "fcall") - fcalls).as("the calls after the load").isGreaterThanOrEqualTo(2);
            assertThat(failedCalls(ctx.redisson(), "fcall") - failed).as("FCALLs that failed (a missing function)").isZero();
            assertThat(Resp.text(ctx.redis().host(), ctx.redis().port(), "FUNCTION", "LIST"))
                    .contains(io.bullpen.lua.ScriptCatalog.classpath().get("addJob").functionName())
                    .contains(io.bullpen.lua.ScriptCatalog.classpath().get("moveToActive").functionName());
        } finally {
            fresh.shutdown();
        }
    }

    /** Waits until FUNCTION LIST shows the libraries of these scripts. */
    private static void awaitLibraries(BullpenTestContext ctx, String... scripts) {
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).untilAsserted(() -> {
            String list = Resp.text(ctx.redis().host(), ctx.redis().port(), "FUNCTION", "LIST");
            for (String script : scripts) {
                assertThat(list).contains(io.bullpen.lua.ScriptCatalog.classpath().get(script).functionName());
            }
        });
    }

    private static long failedCalls(RedissonClient redisson, String command) {
        RedisNode node = redisson.getRedisNodes(RedisNodes.SINGLE).getInstance();
        String v = node.info(RedisNode.InfoSection.COMMANDSTATS).get("cmdstat_" + command);
        return v == null ? 0 : Long.parseLong(v.replaceAll("^.*failed_calls=(\\d+).*$", "$1"));
    }

    private static long calls(RedissonClient redisson, String command) {
        RedisNode node = redisson.getRedisNodes(RedisNodes.SINGLE).getInstance();
        Map<String, String> stats = node.info(RedisNode.InfoSection.COMMANDSTATS);
        String v = stats.get("cmdstat_" + command);
        return v == null ? 0 : Long.parseLong(v.replaceAll("^calls=(\\d+),.*$", "$1"));
    }
}
