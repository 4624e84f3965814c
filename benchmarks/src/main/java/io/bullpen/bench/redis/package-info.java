/**
 * The benchmark's own Redis: a redis-server process started on a free port, a raw control
 * connection (FLUSHALL, CONFIG RESETSTAT, INFO), a MONITOR-based counter of client round trips,
 * and CPU time read from {@code /proc}.
 */
package io.bullpen.bench.redis;
