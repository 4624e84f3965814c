package io.bullpen.bench.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time of a process, all threads, from {@code /proc/<pid>/stat} (utime + stime, in clock
 * ticks of 10 ms on Linux): measure windows long enough for that resolution.
 */
public final class ProcCpu {
    /** Linux's USER_HZ on every architecture it runs the benchmark on. */
    private static final long NANOS_PER_TICK = 10_000_000L;

    private ProcCpu() {
    }

    /**
     * @param pid a live process
     * @return its user + system CPU time so far, in nanoseconds
     * @throws UncheckedIOException when /proc cannot be read (not Linux, or the process is gone)
     */
    public static long nanos(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // Fields after the command name (which may hold spaces) start at field 3, "state".
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long utime = Long.parseLong(fields[14 - 3]);
            long stime = Long.parseLong(fields[15 - 3]);
            return (utime + stime) * NANOS_PER_TICK;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the CPU time of process " + pid, e);
        }
    }
}
