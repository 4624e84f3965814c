/**
 * Test support for Bullpen and for users testing their own processors.
 *
 * <p>Annotate a JUnit Jupiter test class with {@link io.bullpen.testing.BullpenTest} to give it its
 * own real Redis server and Redisson client, then take {@link io.bullpen.testing.BullpenTestContext},
 * {@link org.redisson.api.RedissonClient}, {@link io.bullpen.testing.SettableClock} or
 * {@link io.bullpen.testing.TestRedis} as parameters. {@link io.bullpen.testing.QueueSnapshot} reads
 * every key of a queue and {@link io.bullpen.testing.QueueInvariant} checks the state invariant.
 * {@link io.bullpen.testing.LocalRedisSentinel} runs a Sentinel-monitored master and replica for
 * failover tests.
 */
package io.bullpen.testing;
