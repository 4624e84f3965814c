package io.bullpen;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One page of a {@link Queue#search(JobSearch)}: the matching jobs, in the state's order, and a
 * cursor to continue when the search stopped before the end of the state (at its limit of
 * matches or of jobs read).
 *
 * @param <T> the type of the jobs' data
 */
public final class SearchPage<T> {
    private final List<Job<T>> jobs;
    private final String cursor;
    private final long scanned;

    SearchPage(List<Job<T>> jobs, String cursor, long scanned) {
        this.jobs = List.copyOf(jobs);
        this.cursor = cursor;
        this.scanned = scanned;
    }

    /** @return the matching jobs of this page, in the state's order, each read in full */
    public List<Job<T>> jobs() {
        return jobs;
    }

    /**
     * @return where to continue ({@link JobSearch#cursor(String)}), or empty when the search reached
     *     the end of the state (or of its time range). A page may have a cursor and no job: it
     *     stopped at its scan limit
     */
    public Optional<String> cursor() {
        return Optional.ofNullable(cursor);
    }

    /** @return how many jobs this page read to find its matches */
    public long scanned() {
        return scanned;
    }

    @Override
    public String toString() {
        return "SearchPage[jobs=" + jobs.size() + ", scanned=" + scanned + ", cursor=" + Objects.toString(cursor, "none") + "]";
    }
}
