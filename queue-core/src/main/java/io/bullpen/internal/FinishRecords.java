package io.bullpen.internal;

import io.bullpen.internal.ScriptTypes.Finish;
import java.util.List;

/** Encodes moveToFinished's result records into ARGV; the record layouts are in moveToFinished.lua. */
final class FinishRecords {
    private FinishRecords() {
    }

    /** Appends one record per result, in order. */
    static void encode(List<Object> args, List<Finish> finishes) {
        encode(args, finishes, null);
    }

    /**
     * Appends one record per result, in order; a taken-ahead job's outcome carries when its
     * processor started ({@code startedOn[i]} > 0: suffix "~ms").
     */
    static void encode(List<Object> args, List<Finish> finishes, long[] startedOn) {
        // A completed result needs no retry settings: 9 values instead of 15 (fewer arguments
        // to encode and for the script to read); the record layouts are in moveToFinished.lua.
        for (int i = 0; i < finishes.size(); i++) {
            Finish f = finishes.get(i);
            String ahead = startedOn == null || startedOn[i] <= 0 ? "" : "~" + startedOn[i];
            if (f.limited()) {
                args.add(f.jobId());
                args.add(f.lockToken());
                args.add("limited" + ahead);
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
                args.add("step" + ahead);
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
            outcome += ahead;
            outcome = f.awaitMs() > 0 ? outcome + "@" + f.awaitMs() : outcome;
            // "^": the job has a parent in a flow; its end is told to them (notifyParent).
            args.add(f.hasParent() ? outcome + "^" : outcome);
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

    /** Appends a "started" record (3 values) per buffered job whose processor started. */
    static void encodeStarted(List<Object> args, List<ScriptTypes.Started> started) {
        for (ScriptTypes.Started st : started) {
            args.add(st.jobId());
            args.add(st.lockToken());
            args.add("started");
        }
    }

        /** A finish record's group: "" = the script reads it, "=" = none, "=" + the group. */
    static String groupArg(String group) {
        return group == null ? "" : "=" + group;
    }
}
