package io.bullpen.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.bullpen.GroupInfo;
import io.bullpen.Job;
import io.bullpen.JobSearch;
import io.bullpen.JobState;
import io.bullpen.MetricsType;
import io.bullpen.Queue;
import io.bullpen.SearchPage;
import io.bullpen.flow.ChildResult;
import io.bullpen.flow.JobRef;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The read routes of API.md: config, the queue list, one queue (counts, schedulers, metrics), a
 * page of jobs, a page of a search, one job, a page of a parent's children, the queues' limits, a page of groups, the
 * live workers. No token needed, unless the dashboard is built with {@code tokenForReads} (the router checks it).
 */
final class ApiHandler {
    /** Minutes of metrics in the queue view: the last hour. */
    static final int METRIC_MINUTES = 60;
    /** Matches on a search page when the request does not say. */
    static final int SEARCH_PAGE = 20;
    /** Groups on a page when the request does not say. */
    static final int GROUP_PAGE = 50;
    /** Children on a page when the request does not say. */
    static final int CHILD_PAGE = 50;
    /** How many children one read looks at for a page filtered by {@code ended}. */
    static final int CHILD_BATCH = 100;
    /** The most children one request filtered by {@code ended} looks at. */
    static final int CHILDREN_SCANNED = 1000;

    private final QueueRegistry registry;
    private final ObjectNode config;

    ApiHandler(QueueRegistry registry, boolean readOnly, boolean actions) {
        this.registry = registry;
        this.config = JsonViews.object().put("readOnly", readOnly).put("actions", actions).put("version", Version.get());
    }

    /** {@code GET /api/config} */
    void config(Request request) throws IOException {
        Responses.json(request.exchange(), 200, config);
    }

    /** {@code GET /api/queues} */
    void queues(Request request) throws IOException {
        Responses.json(request.exchange(), 200, JsonViews.object().set("queues", summaries()));
    }

    /**
     * Every queue's summary, sorted by name: one getCounts and one getWorkers script per queue
     * (also the SSE payload).
     */
    ArrayNode summaries() {
        ArrayNode list = JsonViews.array();
        for (String name : registry.names()) {
            Queue<JsonNode> queue = registry.queue(name);
            list.add(JsonViews.queueSummary(name, queue.getJobCounts(), queue.getWorkers().size()));
        }
        return list;
    }

    /** {@code GET /api/queues/{q}} */
    void queue(Request request) throws IOException {
        String name = request.param("q");
        Queue<JsonNode> queue = registry.require(name);
        ObjectNode node = JsonViews.queueSummary(name, queue.getJobCounts(), queue.getWorkers().size());
        ArrayNode schedulers = node.putArray("schedulers");
        queue.getJobSchedulers().forEach(s -> schedulers.add(JsonViews.scheduler(s)));
        node.set("metrics", JsonViews.metrics(queue.getMetrics(MetricsType.COMPLETED, METRIC_MINUTES),
                queue.getMetrics(MetricsType.FAILED, METRIC_MINUTES)));
        Responses.json(request.exchange(), 200, node);
    }

    /** {@code GET /api/queues/{q}/jobs?state=..&start=..&end=..} */
    void jobs(Request request) throws IOException {
        Queue<JsonNode> queue = registry.require(request.param("q"));
        JobState state = Params.state(request);
        long start = Params.number(request, "start", 0, 0);
        long end = Params.number(request, "end", start + 19, 0);
        if (end < start) {
            throw HttpError.badRequest("end must be >= start (" + start + ") but was " + end);
        }
        if (end - start + 1 > Params.MAX_PAGE) {
            throw HttpError.badRequest("a page holds at most " + Params.MAX_PAGE + " jobs but start=" + start
                    + ", end=" + end + " asks for " + (end - start + 1));
        }
        List<Job<JsonNode>> jobs = queue.getJobs(state, start, end);
        long total = queue.getJobCounts().count(state);
        Responses.json(request.exchange(), 200, JsonViews.jobPage(state, start, end, total, jobs));
    }

    /**
     * {@code GET /api/queues/{q}/search?state=..&name=..&path=..&value=..&failedReason=..&cursor=..&limit=..}:
     * a page of {@link Queue#search}: the jobs of the state matching every filter given, and the
     * cursor of the next page. A page reads at most {@value JobSearch#DEFAULT_SCAN_LIMIT} jobs, so it
     * may be short, even empty, and still have a next one.
     */
    void search(Request request) throws IOException {
        Queue<JsonNode> queue = registry.require(request.param("q"));
        JobState state = Params.state(request);
        long limit = Params.number(request, "limit", SEARCH_PAGE, 1);
        if (limit > Params.MAX_PAGE) {
            throw HttpError.badRequest("a page holds at most " + Params.MAX_PAGE + " jobs but limit was " + limit);
        }
        JobSearch search = JobSearch.state(state).limit((int) limit);
        Optional<String> name = Params.text(request, "name");
        if (name.isPresent()) {
            search = search.name(name.get());
        }
        Optional<String> path = request.query("path").filter(p -> !p.isEmpty());
        Optional<String> value = request.query("value");
        if (path.isPresent() != value.isPresent()) {
            throw HttpError.badRequest(path.isPresent() ? "value is required with path " + Params.quote(path.get())
                    : "path is required with value " + Params.quote(value.get()));
        }
        if (path.isPresent()) {
            search = search.data(path.get(), Params.jsonValue(value.get()));
        }
        Optional<String> reason = Params.text(request, "failedReason");
        if (reason.isPresent()) {
            search = search.failedReason(reason.get());
        }
        Optional<String> cursor = request.query("cursor").filter(c -> !c.isEmpty());
        if (cursor.isPresent()) {
            search = search.cursor(cursor.get());
        }
        SearchPage<JsonNode> page = queue.search(search);
        Responses.json(request.exchange(), 200, JsonViews.searchPage(state, cursor.orElse(null), page));
    }

    /** {@code GET /api/queues/{q}/jobs/{id}}: also the search by id. */
    void job(Request request) throws IOException {
        String queueName = request.param("q");
        Queue<JsonNode> queue = registry.require(queueName);
        String id = Params.jobId(request);
        Optional<Job<JsonNode>> job = queue.getJob(id);
        JobState state = job.isPresent() ? queue.getState(id) : JobState.UNKNOWN;
        if (state == JobState.UNKNOWN) {
            throw HttpError.notFound("job " + Params.quote(id) + " not found in queue " + Params.quote(queueName));
        }
        List<JobRef> parents = job.get().parents();
        Predicate<String> shown = parents.isEmpty() ? name -> false : registry.shown();
        Responses.json(request.exchange(), 200, JsonViews.jobDetail(job.get(), state, queue.getJobLogs(id), shown));
    }

    /**
     * {@code GET /api/queues/{q}/jobs/{id}/children?after=..&limit=..&ended=..}: a parent's
     * children in the order they were added, after the cursor ({@code <queue>:<id>} of the last
     * child of the page before). With {@code ended=false} only the children that have not ended
     * (what a parent waiting for its children still waits for), with {@code ended=true} only those
     * that have; a filtered request looks at no more than {@value #CHILDREN_SCANNED} children, so
     * its page may be short, even empty, and still have a next one.
     */
    void children(Request request) throws IOException {
        String queueName = request.param("q");
        Queue<JsonNode> queue = registry.require(queueName);
        String id = Params.jobId(request);
        String after = Params.childCursor(request).orElse(null);
        long limit = Params.number(request, "limit", CHILD_PAGE, 1);
        if (limit > Params.MAX_PAGE) {
            throw HttpError.badRequest("a page holds at most " + Params.MAX_PAGE + " children but limit was " + limit);
        }
        Optional<Boolean> ended = Params.flag(request, "ended");
        if (queue.getState(id) == JobState.UNKNOWN) {
            throw HttpError.notFound("job " + Params.quote(id) + " not found in queue " + Params.quote(queueName));
        }
        // One more than asked: whether a next page exists. A read may return fewer children than
        // it looked at (a child a REMOVE edge dropped is skipped), so read on until an empty one.
        List<ChildResult> page = new ArrayList<>();
        String cursor = after;
        String next = null;
        int scanned = 0;
        while (page.size() <= limit) {
            int batch = ended.isPresent() ? CHILD_BATCH : (int) limit + 1 - page.size();
            List<ChildResult> read = queue.getChildren(id, cursor, batch);
            if (read.isEmpty()) {
                break;
            }
            for (ChildResult c : read) {
                if ((ended.isEmpty() || ended.get() == JsonViews.hasEnded(c)) && page.size() <= limit) {
                    page.add(c);
                }
            }
            cursor = read.get(read.size() - 1).ref().toString();
            scanned += read.size();
            if (ended.isPresent() && scanned >= CHILDREN_SCANNED && page.size() <= limit) {
                next = cursor;              // looked at enough for one request: the next one goes on from here
                break;
            }
        }
        if (page.size() > limit) {
            page = page.subList(0, (int) limit);
            next = page.get(page.size() - 1).ref().toString();
        }
        int total = registry.flowReads().childrenCount(queueName, id);
        Responses.json(request.exchange(), 200,
                JsonViews.childPage(after, next, total, ended.orElse(null), page, registry.shown()));
    }

    /** {@code GET /api/limits}: every queue's limits, sorted by name (for the overview). */
    void allLimits(Request request) throws IOException {
        ArrayNode list = JsonViews.array();
        for (String name : registry.names()) {
            list.add(JsonViews.limits(name, registry.queue(name)));
        }
        Responses.json(request.exchange(), 200, JsonViews.object().set("queues", list));
    }

    /** {@code GET /api/queues/{q}/limits} */
    void limits(Request request) throws IOException {
        String name = request.param("q");
        Responses.json(request.exchange(), 200, JsonViews.limits(name, registry.require(name)));
    }

    /** {@code GET /api/queues/{q}/workers}: the queue's live workers, from their heartbeats. */
    void workers(Request request) throws IOException {
        Queue<JsonNode> queue = registry.require(request.param("q"));
        Responses.json(request.exchange(), 200, JsonViews.workers(queue.getWorkers()));
    }

    /** {@code GET /api/queues/{q}/groups?after=..&limit=..}: groups in name order, after the cursor. */
    void groups(Request request) throws IOException {
        Queue<JsonNode> queue = registry.require(request.param("q"));
        String after = Params.after(request).orElse(null);
        long limit = Params.number(request, "limit", GROUP_PAGE, 1);
        if (limit > Params.MAX_PAGE) {
            throw HttpError.badRequest("a page holds at most " + Params.MAX_PAGE + " groups but limit was " + limit);
        }
        // One more than asked: whether a next page exists, without an empty last page.
        List<GroupInfo> groups = queue.getGroups(after, (int) limit + 1);
        String next = null;
        if (groups.size() > limit) {
            groups = groups.subList(0, (int) limit);
            next = groups.get(groups.size() - 1).name();
        }
        Responses.json(request.exchange(), 200, JsonViews.groupPage(after, next, groups));
    }
}
