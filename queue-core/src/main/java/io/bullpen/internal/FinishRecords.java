package io.bullpen.internal;

import io.bullpen.internal.ScriptTypes.Finish;
import java.util.List;

/** Encodes moveToFinished's result records into ARGV; the record layouts are in moveToFinished.lua. */
final class FinishRecords {
    private FinishRecords() {
    }

    /** Appends one record per result, in order. */
    static void encode(List<Object> args, List<Finish> finishes) {
        // A completed result needs no retry settings: 9 values instead of 15 (fewer arguments
        // to encode and for the script to read); the record layouts are in moveToFinished.lua.
        for (Finish f : finishes) {
            if (f.limited()) {
                args.add(f.jobId());
                args.add(f.lockToken());
                args.add("limited");
                args.add("");
                args.add(f.value());
                args.add(f.limitScope());
                args.add("");
                args.add(groupArg(f.group()));
                continue;
            }
            if (f.step()) {
                args.add(f.jobId());
                args.add(f.lockToken());
                args.add("step");
                args.add("");
                args.add(Long.toString(f.stepDueMs()));
                args.add("");
                args.add("");
                args.add(groupArg(f.group()));
                args.add(f.stagedData() == null ? "" : f.stagedData());
                continue;
            }
            args.add(f.jobId());
            args.add(f.lockToken());
            String outcome = f.stagedData() != null ? (f.completed() ? "completed+data" : "failed+data")
                    : f.completed() ? "completed" : "failed";
            args.add(f.awaitMs() > 0 ? outcome + "@" + f.awaitMs() : outcome);
            args.add(f.attemptsMade() < 0 ? "" : Integer.toString(f.attemptsMade()));
            args.add(f.value() == null ? "" : f.value());
            args.add(Integer.toString(f.retention().count()));
            args.add(Long.toString(f.retention().maxAgeMillis()));
            args.add(groupArg(f.group()));
            if (!f.completed()) {
                args.add(f.stacktrace() == null ? "" : f.stacktrace());
                args.add(Integer.toString(f.stackLimit()));
                args.add(Integer.toString(f.attempts()));
                args.add(Long.toString(f.backoffMs()));
                args.add(f.unrecoverable() ? "1" : "0");
                args.add(f.lifo() ? "1" : "0");
            }
            args.add(f.dedupId() == null ? "" : f.dedupId());
            if (f.stagedData() != null) {
                args.add(f.stagedData());
            }
        }
    }

    /** A finish record's group: "" = the script reads it, "=" = none, "=" + the group. */
    static String groupArg(String group) {
        return group == null ? "" : "=" + group;
    }
}
