package io.bullpen;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import io.bullpen.internal.JsonCodec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@link Queue#search(JobSearch)} looks for: the jobs of one state that match every filter
 * set. Immutable: each method returns a new search, so one search can be kept and continued with
 * {@link #cursor(String)}.
 *
 * <pre>{@code
 * SearchPage<Order> page = orders.search(JobSearch.state(JobState.FAILED).name("charge")
 *         .data("/order/id", "o-17").limit(50));
 * }</pre>
 *
 * <p><b>A search scans; there is no index.</b> It reads the state's jobs in the state's own order
 * (the order of {@link Queue#getJobs}), only their {@code name} and {@code data} (and their failed
 * reason or timestamp when those filters are set), in pipelined batches of small commands, and
 * stops after {@link #limit(int)} matches or {@link #scanLimit(int)} jobs read, whichever comes
 * first; {@link SearchPage#cursor()} then continues from there. No Redis call of a search holds
 * the server for more than a few milliseconds, however many jobs the queue holds, but a search
 * over a million jobs reads a million jobs. To find one job fast, give it an id you can compute
 * ({@link JobOptions.Builder#jobId(String)}) and read it with {@link Queue#getJob(String)}.
 *
 * <p>The jobs are read in many calls, not in one atomic step: a job that changes state, or jobs
 * added or removed ahead of the cursor while a search runs or between its pages, may make the
 * search miss a job or return it twice. On a set of jobs that does not change, continuing with the
 * cursor returns every match exactly once.
 */
public final class JobSearch {
    /** Matches per page unless {@link #limit(int)} says otherwise. */
    public static final int DEFAULT_LIMIT = 50;
    /** The most matches one page may ask for. */
    public static final int MAX_LIMIT = 1_000;
    /** Jobs read per page unless {@link #scanLimit(int)} says otherwise. */
    public static final int DEFAULT_SCAN_LIMIT = 10_000;
    /** The most jobs one page may read. */
    public static final int MAX_SCAN_LIMIT = 1_000_000;

    /** A data filter: the JSON at {@code pointer} must equal {@code value}. */
    record DataFilter(String path, JsonPointer pointer, JsonNode value) {
    }

    private final JobState state;
    private final String name;
    private final List<DataFilter> data;
    private final String failedReason;
    private final Instant from;
    private final Instant to;
    private final int limit;
    private final int scanLimit;
    private final String cursor;

    private JobSearch(JobState state, String name, List<DataFilter> data, String failedReason, Instant from,
                      Instant to, int limit, int scanLimit, String cursor) {
        this.state = state;
        this.name = name;
        this.data = List.copyOf(data);
        this.failedReason = failedReason;
        this.from = from;
        this.to = to;
        this.limit = limit;
        this.scanLimit = scanLimit;
        this.cursor = cursor;
    }

    /**
     * Starts a search of one state's jobs, without filters: {@value #DEFAULT_LIMIT} jobs per page,
     * reading at most {@value #DEFAULT_SCAN_LIMIT} jobs.
     *
     * @param state the state to search (not {@link JobState#UNKNOWN})
     * @return a search
     * @throws IllegalArgumentException for {@link JobState#UNKNOWN}
     */
    public static JobSearch state(JobState state) {
        Objects.requireNonNull(state, "state");
        if (state == JobState.UNKNOWN) {
            throw new IllegalArgumentException("cannot search jobs in state UNKNOWN: no job is stored in it");
        }
        return new JobSearch(state, null, List.of(), null, null, null, DEFAULT_LIMIT, DEFAULT_SCAN_LIMIT, null);
    }

    /**
     * Keeps only jobs of this name (exact, case-sensitive).
     *
     * @param name the job name
     * @return the search with this filter
     */
    public JobSearch name(String name) {
        Objects.requireNonNull(name, "name");
        return new JobSearch(state, name, data, failedReason, from, to, limit, scanLimit, cursor);
    }

    /**
     * Keeps only jobs whose data holds {@code value} at {@code path}. The path is a JSON Pointer
     * (RFC 6901) as Jackson's {@link JsonPointer} reads it: {@code "/order/id"}, {@code "/items/0"},
     * {@code ~1} for a {@code /} and {@code ~0} for a {@code ~} in a name; {@code ""} is the whole
     * data. The value is turned into JSON with the queue's Jackson settings now, and the node at the
     * path must equal it as JSON: {@code data("/n", 17)} matches the number 17 (and 17.0), never the
     * string {@code "17"}, which {@code data("/n", "17")} matches; objects and arrays match when
     * equal member by member. A job whose data has no node at the path never matches, not even
     * {@code null}, which matches an explicit JSON {@code null} only. Several data filters must all
     * match.
     *
     * @param path a JSON Pointer into the job's data
     * @param value the value to find there: a String, number, boolean, null, a
     *     {@link JsonNode}, or any object Jackson serializes
     * @return the search with this filter
     * @throws IllegalArgumentException naming the path when it is not a JSON Pointer, or when the
     *     value cannot be serialized
     */
    public JobSearch data(String path, Object value) {
        Objects.requireNonNull(path, "path");
        JsonPointer pointer;
        try {
            pointer = JsonPointer.compile(path);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("data path must be a JSON Pointer (RFC 6901) such as \"/order/id\" but was \""
                    + path + "\": " + e.getMessage(), e);
        }
        JsonNode node;
        try {
            node = JsonCodec.mapper().valueToTree(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("cannot turn the value searched at data path \"" + path
                    + "\" into JSON: " + e.getMessage(), e);
        }
        List<DataFilter> more = new ArrayList<>(data);
        more.add(new DataFilter(path, pointer, node == null ? JsonCodec.mapper().nullNode() : node));
        return new JobSearch(state, name, more, failedReason, from, to, limit, scanLimit, cursor);
    }

    /**
     * Keeps only jobs whose failed reason contains {@code text} (case-sensitive). The failed reason
     * is read only when this filter is set. A job that never failed has none and does not match.
     *
     * @param text the text to find in the failed reason (not empty)
     * @return the search with this filter
     * @throws IllegalArgumentException for an empty text
     */
    public JobSearch failedReason(String text) {
        Objects.requireNonNull(text, "text");
        if (text.isEmpty()) {
            throw new IllegalArgumentException("failedReason text must not be empty");
        }
        return new JobSearch(state, name, data, text, from, to, limit, scanLimit, cursor);
    }

    /**
     * Keeps only jobs whose time in the state is in {@code [from, to)}, to the millisecond. The time
     * is the one the state is ordered by where it has one: completed and failed jobs when they
     * finished, delayed jobs when they are due, parents waiting for children when they started
     * waiting; there the search reads only that part of the state and stops at its end. Waiting,
     * prioritized and active jobs are filtered by when they were added (the job's timestamp, read
     * only when this filter is set), without a shortcut: the whole state is scanned.
     *
     * @param from the earliest time, inclusive
     * @param to the latest time, exclusive
     * @return the search with this filter
     * @throws IllegalArgumentException when {@code to} is before {@code from}
     */
    public JobSearch between(Instant from, Instant to) {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        if (to.isBefore(from)) {
            throw new IllegalArgumentException("between: to must not be before from but was from " + from + ", to " + to);
        }
        return new JobSearch(state, name, data, failedReason, from, to, limit, scanLimit, cursor);
    }

    /**
     * @param limit the most matches one page returns, 1 to {@value #MAX_LIMIT}; default {@value #DEFAULT_LIMIT}
     * @return the search with this limit
     * @throws IllegalArgumentException outside 1 to {@value #MAX_LIMIT}
     */
    public JobSearch limit(int limit) {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be between 1 and " + MAX_LIMIT + " but was " + limit);
        }
        return new JobSearch(state, name, data, failedReason, from, to, limit, scanLimit, cursor);
    }

    /**
     * @param scanLimit the most jobs one page reads, 1 to {@value #MAX_SCAN_LIMIT}; default
     *     {@value #DEFAULT_SCAN_LIMIT}. A page that stops here has a cursor even with no match
     * @return the search with this scan limit
     * @throws IllegalArgumentException outside 1 to {@value #MAX_SCAN_LIMIT}
     */
    public JobSearch scanLimit(int scanLimit) {
        if (scanLimit < 1 || scanLimit > MAX_SCAN_LIMIT) {
            throw new IllegalArgumentException("scanLimit must be between 1 and " + MAX_SCAN_LIMIT + " but was " + scanLimit);
        }
        return new JobSearch(state, name, data, failedReason, from, to, limit, scanLimit, cursor);
    }

    /**
     * Continues a search where a page stopped. Pass the same filters as that page's search.
     *
     * @param cursor {@link SearchPage#cursor()} of the previous page
     * @return the search, continued
     * @throws IllegalArgumentException when the cursor is not one a search of this state returned
     */
    public JobSearch cursor(String cursor) {
        Objects.requireNonNull(cursor, "cursor");
        SearchCursor.decode(state, cursor);
        return new JobSearch(state, name, data, failedReason, from, to, limit, scanLimit, cursor);
    }

    /** @return the state searched */
    public JobState state() {
        return state;
    }

    /** @return the job name filter, if set */
    public Optional<String> name() {
        return Optional.ofNullable(name);
    }

    /** @return the failed reason filter, if set */
    public Optional<String> failedReason() {
        return Optional.ofNullable(failedReason);
    }

    /** @return the start of the time range, inclusive, if set */
    public Optional<Instant> from() {
        return Optional.ofNullable(from);
    }

    /** @return the end of the time range, exclusive, if set */
    public Optional<Instant> to() {
        return Optional.ofNullable(to);
    }

    /** @return the most matches one page returns */
    public int limit() {
        return limit;
    }

    /** @return the most jobs one page reads */
    public int scanLimit() {
        return scanLimit;
    }

    /** @return the cursor this search continues from, if any */
    public Optional<String> cursor() {
        return Optional.ofNullable(cursor);
    }

    List<DataFilter> dataFilters() {
        return data;
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("JobSearch[state=").append(state.label());
        if (name != null) {
            s.append(", name=").append(name);
        }
        for (DataFilter f : data) {
            s.append(", data ").append(f.path()).append('=').append(f.value());
        }
        if (failedReason != null) {
            s.append(", failedReason contains ").append(failedReason);
        }
        if (from != null) {
            s.append(", between ").append(from).append(" and ").append(to);
        }
        return s.append(", limit=").append(limit).append(", scanLimit=").append(scanLimit).append(']').toString();
    }
}
