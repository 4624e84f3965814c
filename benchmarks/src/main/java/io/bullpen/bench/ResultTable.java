package io.bullpen.bench;

import io.bullpen.bench.peer.Peer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Renders the results as one Markdown table: a row per metric; per peer the median over runs
 * with the min-max range; per other peer the ratio Bullpen/peer of the medians. "n/a" marks a
 * metric a peer has no equivalent for, "error" a run that failed.
 */
public final class ResultTable {
    private static final String BULLPEN = "bullpen";

    private ResultTable() {
    }

    /**
     * @param metrics the rows, in order
     * @param peers the peers, in column order
     * @param results what was measured
     * @return the table, one line per row, header and separator included
     */
    public static String render(List<Metric> metrics, List<Peer> peers, Results results) {
        List<String> header = new ArrayList<>(List.of("Workload", "Metric", "Better"));
        for (Peer peer : peers) {
            header.add(peer.title());
            if (!peer.name().equals(BULLPEN)) {
                header.add("Bullpen/" + peer.title());
            }
        }
        List<List<String>> rows = new ArrayList<>();
        for (Metric metric : metrics) {
            List<String> row = new ArrayList<>(List.of(metric.workload(), metric.label(),
                    metric.higherIsBetter() ? "higher" : "lower"));
            Optional<Results.Summary> ours = results.summary(metric, BULLPEN);
            for (Peer peer : peers) {
                row.add(cell(metric, peer.name(), results));
                if (!peer.name().equals(BULLPEN)) {
                    row.add(ratio(ours, results.summary(metric, peer.name())));
                }
            }
            rows.add(row);
        }
        return format(header, rows);
    }

    private static String cell(Metric metric, String peer, Results results) {
        Optional<Results.Summary> s = results.summary(metric, peer);
        if (s.isPresent()) {
            Results.Summary v = s.get();
            String median = number(v.median(), metric.decimals());
            return v.runs() == 1 ? median
                    : median + " (" + number(v.min(), metric.decimals()) + "-" + number(v.max(), metric.decimals()) + ")";
        }
        if (results.failed(peer, metric.workload())) {
            return "error";
        }
        return results.notApplicable(metric, peer) ? "n/a" : "-";
    }

    private static String ratio(Optional<Results.Summary> ours, Optional<Results.Summary> theirs) {
        if (ours.isEmpty() || theirs.isEmpty() || theirs.get().median() == 0) {
            return "n/a";
        }
        return String.format(Locale.ROOT, "%.2fx", ours.get().median() / theirs.get().median());
    }

    /**
     * @param value a value
     * @param decimals digits after the point
     * @return it with thousands separators, e.g. 24,012 or 3.4
     */
    static String number(double value, int decimals) {
        return String.format(Locale.US, "%,." + decimals + "f", value);
    }

    private static String format(List<String> header, List<List<String>> rows) {
        int[] widths = new int[header.size()];
        for (int i = 0; i < widths.length; i++) {
            widths[i] = header.get(i).length();
            for (List<String> row : rows) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        StringBuilder out = new StringBuilder();
        line(out, header, widths);
        List<String> separator = new ArrayList<>();
        for (int width : widths) {
            separator.add("-".repeat(width));
        }
        line(out, separator, widths);
        rows.forEach(row -> line(out, row, widths));
        return out.toString();
    }

    private static void line(StringBuilder out, List<String> cells, int[] widths) {
        out.append('|');
        for (int i = 0; i < cells.size(); i++) {
            out.append(' ').append(String.format("%-" + widths[i] + "s", cells.get(i))).append(" |");
        }
        out.append('\n');
    }
}
