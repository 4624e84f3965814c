package io.bullpen.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.bench.workload.Workloads;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Keeps the harness from rotting: {@code --quick} for Bullpen alone (no Node needed) runs every
 * workload end to end and prints a table with a number for every metric. The figures themselves
 * are not asserted: performance is measured, not tested.
 */
class QuickBenchTest {
    private static final Pattern NUMBER = Pattern.compile("-?[0-9][0-9,]*(\\.[0-9]+)?");

    @Test
    void quickRunPrintsANumberForEveryMetricOfBullpen() {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        int exit = BenchMain.run(new String[] {"--quick", "--peers", "bullpen"}, new PrintStream(captured, true, StandardCharsets.UTF_8));
        String output = captured.toString(StandardCharsets.UTF_8);

        assertThat(exit).as(output).isZero();
        List<String> rows = output.lines().filter(line -> line.startsWith("|")).toList();
        assertThat(rows.get(0)).contains("Workload", "Metric", "Bullpen");
        for (Metric metric : Workloads.allMetrics(Sizes.quick())) {
            Optional<String[]> row = rows.stream()
                    .map(line -> Arrays.stream(line.split("\\|")).map(String::trim).toArray(String[]::new))
                    .filter(cells -> cells.length > 4 && cells[1].equals(metric.workload()) && cells[2].equals(metric.label()))
                    .findFirst();
            assertThat(row).as("row for %s / %s in%n%s", metric.workload(), metric.label(), output).isPresent();
            assertThat(row.get()[4]).as("Bullpen's %s", metric.label()).matches(NUMBER);
        }
        assertThat(rows).hasSize(2 + Workloads.allMetrics(Sizes.quick()).size());
    }

    @Test
    void badArgumentsAreRejectedWithTheirName() {
        assertThat(BenchMain.run(new String[] {"--runs", "0"}, System.out)).isEqualTo(2);
        assertThat(BenchMain.run(new String[] {"--peers", "sidekiq"}, System.out)).isEqualTo(2);
    }
}
