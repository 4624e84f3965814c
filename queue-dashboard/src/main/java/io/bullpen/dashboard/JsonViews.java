package io.bullpen.dashboard;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.bullpen.GroupInfo;
import io.bullpen.Job;
import io.bullpen.JobCounts;
import io.bullpen.JobScheduler;
import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.QueueMetrics;
import io.bullpen.RateLimit;
import io.bullpen.SearchPage;
import io.bullpen.WorkerInfo;
import io.bullpen.flow.ChildResult;
import io.bullpen.flow.JobRef;
import io.bullpen.internal.WireFormat;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Predicate;

/**
 * The JSON shapes of API.md, built as ordered trees: QueueSummary, JobSummary, JobDetail, a job
 * page, a page of a parent's children, a scheduler, metrics, errors. Job values (data, return
 * value, progress) stay the raw JSON text stored in Redis; the page shows them as text.
 */
final class JsonViews {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** Compact output with {@code < > & '} written as \\u escapes, so no response can read as markup. */
    private static final ObjectWriter WRITER = MAPPER.writer().with(new HtmlSafeEscapes());
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private JsonViews() {
    }

    static byte[] bytes(JsonNode node) {
        try {
            return WRITER.writeValueAsBytes(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String string(JsonNode node) {
        try {
            return WRITER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ObjectNode object() {
        return NODES.objectNode();
    }

    static ArrayNode array() {
        return NODES.arrayNode();
    }

    static ObjectNode error(String message) {
        return object().put("error", message);
    }

    static ObjectNode ok() {
        return object().put("ok", true);
    }

    /**
     * {@code {"name", "paused", "counts": {waiting, active, delayed, prioritized, waiting-children,
     * completed, failed}}}: each count under its state's label.
     */
    static ObjectNode queueSummary(String name, JobCounts c) {
        ObjectNode node = object().put("name", name).put("paused", c.paused());
        node.putObject("counts")
                .put("waiting", c.waiting())
                .put("active", c.active())
                .put("delayed", c.delayed())
                .put("prioritized", c.prioritized())
                .put(JobState.WAITING_CHILDREN.label(), c.waitingChildren())
                .put("completed", c.completed())
                .put("failed", c.failed());
        return node;
    }

    /** QueueSummary with {@code "workers"}: how many live workers the queue has (its heartbeats). */
    static ObjectNode queueSummary(String name, JobCounts c, int workers) {
        return queueSummary(name, c).put("workers", workers);
    }

    /**
     * The queue's live workers: {@code {"workers": [{"name", "host", "pid", "concurrency",
     * "running", "paused", "started", "lastSeen"}...]}} in name order (times in epoch ms).
     */
    static ObjectNode workers(List<WorkerInfo> workers) {
        ObjectNode node = object();
        ArrayNode list = node.putArray("workers");
        for (WorkerInfo w : workers) {
            list.addObject().put("name", w.name()).put("host", w.host()).put("pid", w.pid())
                    .put("concurrency", w.concurrency()).put("running", w.running()).put("paused", w.paused())
                    .put("started", w.started().toEpochMilli()).put("lastSeen", w.lastSeen().toEpochMilli());
        }
        return node;
    }

    /**
     * Limits: {@code {"name", "rateLimit": RateLimit|null, "globalConcurrency": n|null,
     * "defaultGroupConcurrency": n|null, "defaultGroupRateLimit": RateLimit|null}}, read from
     * Redis (four reads).
     */
    static ObjectNode limits(String name, Queue<?> queue) {
        ObjectNode node = object().put("name", name);
        node.set("rateLimit", rateLimit(queue.getRateLimit()));
        putCount(node, "globalConcurrency", queue.getGlobalConcurrency());
        putCount(node, "defaultGroupConcurrency", queue.getDefaultGroupConcurrency());
        node.set("defaultGroupRateLimit", rateLimit(queue.getDefaultGroupRateLimit()));
        return node;
    }

    /** RateLimit: {@code {"max", "per" (ms), "burst"}}, or null. */
    static JsonNode rateLimit(Optional<RateLimit> limit) {
        return limit.<JsonNode>map(l -> object().put("max", l.max()).put("per", l.per().toMillis()).put("burst", l.burst()))
                .orElse(NODES.nullNode());
    }

    /**
     * A page of groups: {@code {"after", "next", "groups": [Group...]}}; {@code next} is the
     * cursor of the following page, null on the last one. Group = {@code {"name", "waiting",
     * "active", "paused", "concurrency", "rateLimit", "maxSize", "weight"}}, a setting null when
     * the group has none of its own.
     */
    static ObjectNode groupPage(String after, String next, List<GroupInfo> groups) {
        ObjectNode node = object().put("after", after).put("next", next);
        ArrayNode list = node.putArray("groups");
        groups.forEach(g -> list.add(group(g)));
        return node;
    }

    static ObjectNode group(GroupInfo g) {
        ObjectNode node = object().put("name", g.name()).put("waiting", g.waiting()).put("active", g.active())
                .put("paused", g.paused());
        putCount(node, "concurrency", g.concurrency());
        node.set("rateLimit", rateLimit(g.rateLimit()));
        putCount(node, "maxSize", g.maxSize());
        return node.put("weight", g.weight());
    }

    /** {@code {"id", "name", "repeat", "nextRun", "iterations"}} */
    static ObjectNode scheduler(JobScheduler s) {
        ObjectNode node = object().put("id", s.id()).put("name", s.name());
        node.set("repeat", MAPPER.valueToTree(WireFormat.describe(s.repeat())));
        putTime(node, "nextRun", s.nextRun());
        return node.put("iterations", s.iterations());
    }

    /** {@code {"since", "completed": [..], "failed": [..]}}, newest minute first. */
    static ObjectNode metrics(QueueMetrics completed, QueueMetrics failed) {
        ObjectNode node = object().put("since", completed.since().toEpochMilli());
        completed.counts().forEach(node.putArray("completed")::add);
        failed.counts().forEach(node.putArray("failed")::add);
        return node;
    }

    /** {@code {"state", "start", "end", "total", "jobs": [JobSummary...]}} */
    static ObjectNode jobPage(JobState state, long start, long end, long total, List<? extends Job<?>> jobs) {
        ObjectNode node = object().put("state", state.label()).put("start", start).put("end", end).put("total", total);
        ArrayNode list = node.putArray("jobs");
        jobs.forEach(job -> list.add(jobSummary(job, state)));
        return node;
    }

    /** {@code {"state", "cursor", "next", "scanned", "jobs": [JobSummary...]}}: a page of a search. */
    static ObjectNode searchPage(JobState state, String cursor, SearchPage<?> page) {
        ObjectNode node = object().put("state", state.label()).put("cursor", cursor)
                .put("next", page.cursor().orElse(null)).put("scanned", page.scanned());
        ArrayNode list = node.putArray("jobs");
        page.jobs().forEach(job -> list.add(jobSummary(job, state)));
        return node;
    }

    /** JobSummary: what a row of a job list shows. */
    static ObjectNode jobSummary(Job<?> job, JobState state) {
        ObjectNode node = object()
                .put("id", job.id())
                .put("name", job.name())
                .put("state", state.label())
                .put("timestamp", job.timestamp().toEpochMilli());
        putTime(node, "processedOn", job.processedOn());
        putTime(node, "finishedOn", job.finishedOn());
        return node.put("attemptsMade", job.attemptsMade())
                .put("attemptsStarted", job.attemptsStarted())
                .put("priority", job.priority())
                .put("delay", job.delay().toMillis())
                .put("failedReason", job.failedReason().orElse(null))
                .put("progress", job.progressJson().orElse(null));
    }

    /**
     * JobDetail: JobSummary plus data, options, result, stack traces, logs, bookkeeping and the
     * job's parents in flows ({@code [{"queue", "id", "shown"}...]}; {@code shown}: whether this
     * dashboard shows the parent's queue, so the page can link to it).
     */
    static ObjectNode jobDetail(Job<?> job, JobState state, List<String> logs, Predicate<String> shown) {
        ObjectNode node = jobSummary(job, state).put("data", job.dataJson());
        node.set("options", MAPPER.valueToTree(WireFormat.describe(job.options())));
        node.put("returnValue", job.returnValueJson().orElse(null));
        job.stacktrace().forEach(node.putArray("stacktrace")::add);
        logs.forEach(node.putArray("logs")::add);
        return node.put("processedBy", job.processedBy().orElse(null))
                .put("stalledCount", job.stalledCount())
                // Stored jobs keep no fence (it lives in the attempt's lock): null, not a made-up 0.
                .put("fencingToken", job.fencingToken() > 0 ? job.fencingToken() : null)
                .put("schedulerId", job.schedulerId().orElse(null))
                .set("parents", parents(job.parents(), shown));
    }

    private static ArrayNode parents(List<JobRef> parents, Predicate<String> shown) {
        ArrayNode list = array();
        for (JobRef p : parents) {
            list.addObject().put("queue", p.queue()).put("id", p.id()).put("shown", shown.test(p.queue()));
        }
        return list;
    }

    /**
     * A page of a parent's children: {@code {"after", "next", "total", "ended", "children":
     * [Child...]}}; {@code next} is the cursor of the following page, null on the last one;
     * {@code ended} the filter asked for (null: none). Child = {@code {"queue", "id", "name",
     * "state", "ended", "returnValue", "failedReason", "shown"}}: {@code ended} once the child
     * completed or failed (until then a parent waiting for its children waits for it), its return
     * value (JSON text) and failed reason once it did, {@code shown} whether this dashboard shows
     * the child's queue.
     */
    static ObjectNode childPage(String after, String next, int total, Boolean ended, List<ChildResult> children,
                                Predicate<String> shown) {
        ObjectNode node = object().put("after", after).put("next", next).put("total", total).put("ended", ended);
        ArrayNode list = node.putArray("children");
        for (ChildResult c : children) {
            list.addObject().put("queue", c.queue()).put("id", c.id()).put("name", c.name())
                    .put("state", c.state().label()).put("ended", hasEnded(c))
                    .put("returnValue", c.returnValueJson().orElse(null))
                    .put("failedReason", c.failedReason().orElse(null))
                    .put("shown", shown.test(c.queue()));
        }
        return node;
    }

    /** Whether a child has ended (completed or failed): a parent waiting for its children waits for the others. */
    static boolean hasEnded(ChildResult child) {
        return child.state() == JobState.COMPLETED || child.state() == JobState.FAILED;
    }

    private static void putCount(ObjectNode node, String field, OptionalLong value) {
        if (value.isPresent()) {
            node.put(field, value.getAsLong());
        } else {
            node.putNull(field);
        }
    }

    private static void putTime(ObjectNode node, String field, Optional<Instant> time) {
        if (time.isPresent()) {
            node.put(field, time.get().toEpochMilli());
        } else {
            node.putNull(field);
        }
    }

    /** Standard JSON escapes plus {@code < > & '} as \\u escapes (defence in depth against sniffing). */
    private static final class HtmlSafeEscapes extends CharacterEscapes {
        private static final long serialVersionUID = 1L;
        private final int[] codes;

        HtmlSafeEscapes() {
            codes = standardAsciiEscapesForJSON();
            for (char c : new char[] {'<', '>', '&', '\''}) {
                codes[c] = ESCAPE_STANDARD;
            }
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return codes;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            return null;
        }
    }
}
