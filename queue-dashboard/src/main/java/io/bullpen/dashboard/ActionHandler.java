package io.bullpen.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import io.bullpen.CancelResult;
import io.bullpen.JobNotFoundException;
import io.bullpen.JobState;
import io.bullpen.JobStateException;
import io.bullpen.Queue;
import java.io.IOException;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The action routes of API.md (POST, token required). Each one checks the token first, so a
 * request without it changes nothing and learns nothing; then it finds the queue and calls the
 * {@link Queue} method. Job state and lock conflicts surface as the queue's exceptions, which
 * {@link Router} answers with 404 or 409. Every action done is logged with the caller's address.
 */
final class ActionHandler {
    private static final Logger log = LoggerFactory.getLogger(ActionHandler.class);

    /** The reason of a cancel from the dashboard that gives none. */
    static final String DEFAULT_CANCEL_REASON = "cancelled from the dashboard";

    private final QueueRegistry registry;
    private final Auth auth;

    ActionHandler(QueueRegistry registry, Auth auth) {
        this.registry = registry;
        this.auth = auth;
    }

    /** {@code POST /api/queues/{q}/jobs/{id}/retry}: failed -> waiting. */
    void retry(Request request) throws IOException {
        Queue<JsonNode> queue = authorizedQueue(request);
        String id = Params.jobId(request);
        queue.retry(id);
        done(request, "retried job " + id, -1);
    }

    /** {@code POST /api/queues/{q}/jobs/{id}/promote}: delayed -> waiting. */
    void promote(Request request) throws IOException {
        Queue<JsonNode> queue = authorizedQueue(request);
        String id = Params.jobId(request);
        queue.promote(id);
        done(request, "promoted job " + id, -1);
    }

    /** {@code POST /api/queues/{q}/jobs/{id}/remove}: any state but active and locked. */
    void remove(Request request) throws IOException {
        Queue<JsonNode> queue = authorizedQueue(request);
        String id = Params.jobId(request);
        if (!queue.remove(id)) {
            throw new JobNotFoundException(queue.name(), id);
        }
        done(request, "removed job " + id, -1);
    }

    /**
     * {@code POST /api/queues/{q}/jobs/{id}/cancel[?reason=...]}: a waiting, delayed or prioritized
     * job is failed as cancelled at once; an active one is flagged and its worker stops it.
     * Answers {@code {"ok": true, "result": "<CancelResult>"}}; an unknown job is 404, a finished
     * one 409.
     */
    void cancel(Request request) throws IOException {
        Queue<JsonNode> queue = authorizedQueue(request);
        String id = Params.jobId(request);
        String reason = request.query("reason").orElse(DEFAULT_CANCEL_REASON);
        CancelResult result = queue.cancel(id, reason);
        if (result == CancelResult.NOT_FOUND) {
            throw new JobNotFoundException(queue.name(), id);
        }
        if (result == CancelResult.ALREADY_FINISHED) {
            throw new JobStateException(queue.name(), id, "cancel", "waiting, delayed, prioritized or active");
        }
        log.info("dashboard action from {}: cancelled job {} in queue {} ({})", request.exchange().getRemoteAddress(), id,
                request.param("q"), result);
        Responses.json(request.exchange(), 200, JsonViews.ok().put("result", result.name()));
    }

    /** {@code POST /api/queues/{q}/retry-failed}: every failed job runs again. */
    void retryFailed(Request request) throws IOException {
        Queue<JsonNode> queue = authorizedQueue(request);
        done(request, "retried failed jobs", queue.retryJobs(JobState.FAILED));
    }

    /** {@code POST /api/queues/{q}/clean?state=completed|failed&graceMs=N} */
    void clean(Request request) throws IOException {
        Queue<JsonNode> queue = authorizedQueue(request);
        String label = request.query("state").orElseThrow(() ->
                HttpError.badRequest("state is required: completed or failed"));
        JobState state = switch (label) {
            case "completed" -> JobState.COMPLETED;
            case "failed" -> JobState.FAILED;
            default -> throw HttpError.badRequest("state must be completed or failed but was " + Params.quote(label));
        };
        long graceMs = Params.requiredNumber(request, "graceMs", 0);
        long count = queue.clean(Duration.ofMillis(graceMs), 0, state);
        done(request, "cleaned " + label + " jobs older than " + graceMs + " ms", count);
    }

    /** {@code POST /api/queues/{q}/pause} */
    void pause(Request request) throws IOException {
        authorizedQueue(request).pause();
        done(request, "paused the queue", -1);
    }

    /** {@code POST /api/queues/{q}/resume} */
    void resume(Request request) throws IOException {
        authorizedQueue(request).resume();
        done(request, "resumed the queue", -1);
    }

    /** {@code POST /api/queues/{q}/groups/{g}/pause}: the group's jobs wait until it is resumed. */
    void pauseGroup(Request request) throws IOException {
        Queue<JsonNode> queue = authorizedQueue(request);
        queue.pauseGroup(existingGroup(queue, request));
        done(request, "paused group " + request.param("g"), -1);
    }

    /** {@code POST /api/queues/{q}/groups/{g}/resume} */
    void resumeGroup(Request request) throws IOException {
        Queue<JsonNode> queue = authorizedQueue(request);
        queue.resumeGroup(existingGroup(queue, request));
        done(request, "resumed group " + request.param("g"), -1);
    }

    /** The path's group, 404 when the queue has no such group (a typo must not create one). */
    private static String existingGroup(Queue<JsonNode> queue, Request request) {
        String group = Params.group(request);
        if (queue.getGroup(group).isEmpty()) {
            throw HttpError.notFound("group " + Params.quote(group) + " not found in queue " + Params.quote(queue.name()));
        }
        return group;
    }

    private Queue<JsonNode> authorizedQueue(Request request) {
        auth.require(request);
        return registry.require(request.param("q"));
    }

    /** Logs the action and answers {@code {"ok": true}}, with {@code "count"} when {@code count >= 0}. */
    private static void done(Request request, String what, long count) throws IOException {
        log.info("dashboard action from {}: {} in queue {}{}", request.exchange().getRemoteAddress(), what,
                request.param("q"), count >= 0 ? " (" + count + ")" : "");
        var body = JsonViews.ok();
        if (count >= 0) {
            body.put("count", count);
        }
        Responses.json(request.exchange(), 200, body);
    }
}
