package io.bullpen.internal;

import io.bullpen.internal.ScriptTypes.Finish;
import java.util.List;

/**
 * Encodes moveToFinished's records into ARGV, one per outcome, each field set by the name the
 * script's header gives it ({@code Records:}, read through {@link ScriptArgs}): the header is
 * the one place a field's position is written.
 */
final class FinishRecords {
    private static final String SCRIPT = "moveToFinished";

    private FinishRecords() {
    }

    /**
     * Appends one record per outcome, in order.
     *
     * @param now the call's now (epoch ms): a delayed retry is due at now + its delay
     * @param startedOn per outcome, when a taken-ahead job's processor started (epoch ms, > 0),
     *     else 0; null = no job was taken ahead
     */
    static void encode(ScriptArgs layouts, List<Object> args, List<Finish> finishes, long now, long[] startedOn) {
        for (int i = 0; i < finishes.size(); i++) {
            String started = startedOn == null || startedOn[i] <= 0 ? "" : Long.toString(startedOn[i]);
            record(layouts, finishes.get(i), now).set("startedOn", started).into(args);
        }
    }

    private static ScriptArgs.Record record(ScriptArgs layouts, Finish finish, long now) {
        if (finish instanceof Finish.Completed c) {
            return layouts.record(SCRIPT, "completed")
                    .set("jobId", c.jobId()).set("lockToken", c.lockToken())
                    .set("attemptsMade", Integer.toString(c.attemptsMade()))
                    .set("returnValue", c.returnValue() == null ? "" : c.returnValue())
                    .set("keepCount", Integer.toString(c.retention().count()))
                    .set("keepAgeMs", Long.toString(c.retention().maxAgeMillis()))
                    .set("group", groupArg(c.group())).set("dedupId", orEmpty(c.dedupId()))
                    .set("stagedData", orEmpty(c.stagedData())).set("awaitTtl", ttl(c.awaitMs()))
                    .set("parent", flag(c.parent())).set("children", orEmpty(c.children()));
        }
        if (finish instanceof Finish.Failed f) {
            return layouts.record(SCRIPT, "failed")
                    .set("jobId", f.jobId()).set("lockToken", f.lockToken())
                    .set("attemptsMade", Integer.toString(f.attemptsMade()))
                    .set("reason", orEmpty(f.reason())).set("stacktrace", orEmpty(f.stacktrace()))
                    .set("stackLimit", Integer.toString(f.stackLimit()))
                    .set("keepCount", Integer.toString(f.retention().count()))
                    .set("keepAgeMs", Long.toString(f.retention().maxAgeMillis()))
                    .set("group", groupArg(f.group())).set("dedupId", orEmpty(f.dedupId()))
                    .set("stagedData", orEmpty(f.stagedData())).set("awaitTtl", ttl(f.awaitMs()))
                    .set("parent", flag(f.parent()));
        }
        if (finish instanceof Finish.Retry r) {
            return layouts.record(SCRIPT, "retry")
                    .set("jobId", r.jobId()).set("lockToken", r.lockToken())
                    .set("attemptsMade", Integer.toString(r.attemptsMade()))
                    .set("reason", orEmpty(r.reason())).set("stacktrace", orEmpty(r.stacktrace()))
                    .set("stackLimit", Integer.toString(r.stackLimit()))
                    .set("delayMs", Long.toString(r.delayMs()))
                    .set("dueAt", r.delayMs() > 0 ? Long.toString(now + r.delayMs()) : "")
                    .set("lifo", r.lifo() ? "1" : "0").set("group", groupArg(r.group()))
                    .set("stagedData", orEmpty(r.stagedData()))
                    .set("keepCount", Integer.toString(r.retention().count()))
                    .set("keepAgeMs", Long.toString(r.retention().maxAgeMillis()))
                    .set("dedupId", orEmpty(r.dedupId())).set("awaitTtl", ttl(r.awaitMs()))
                    .set("parent", flag(r.parent()));
        }
        if (finish instanceof Finish.Step s) {
            return layouts.record(SCRIPT, "step")
                    .set("jobId", s.jobId()).set("lockToken", s.lockToken())
                    .set("dueAt", Long.toString(s.dueMs())).set("stagedData", orEmpty(s.stagedData()))
                    .set("group", groupArg(s.group())).set("children", orEmpty(s.children()));
        }
        if (finish instanceof Finish.WaitChildren w) {
            return layouts.record(SCRIPT, "waitChildren")
                    .set("jobId", w.jobId()).set("lockToken", w.lockToken())
                    .set("children", orEmpty(w.children())).set("stagedData", orEmpty(w.stagedData()))
                    .set("group", groupArg(w.group()));
        }
        Finish.Limited l = (Finish.Limited) finish;
        return layouts.record(SCRIPT, "limited")
                    .set("jobId", l.jobId()).set("lockToken", l.lockToken())
                    .set("delayMs", Long.toString(l.delayMs())).set("scope", l.groupScope() ? "group" : "queue")
                .set("group", groupArg(l.group()));
    }

    /** Appends a "started" record per buffered job whose processor started. */
    static void encodeStarted(ScriptArgs layouts, List<Object> args, List<ScriptTypes.Started> started) {
        for (ScriptTypes.Started st : started) {
            layouts.record(SCRIPT, "started").set("jobId", st.jobId()).set("lockToken", st.lockToken()).into(args);
        }
    }

    /** A record's group: "" = the script reads it, "=" = none, "=" + the group. */
    static String groupArg(String group) {
        return group == null ? "" : "=" + group;
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }

    /** "1" for a job with a parent in a flow, "" otherwise. */
    private static String flag(boolean parent) {
        return parent ? "1" : "";
    }

    private static String ttl(long awaitMs) {
        return awaitMs > 0 ? Long.toString(awaitMs) : "";
    }
}
