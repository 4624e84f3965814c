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
 * Keeps the flow-control workloads from rotting: each runs with {@code --quick} for
 * Bullpen alone and prints a number for every one of its metrics. The figures are not asserted.
 */
class FlowBenchTest {
    private static final Pattern NUMBER = Pattern.compile("-?[0-9][0-9,]*(\\.[0-9]+)?");

    @Test
    void limiterPrintsANumberForEveryMetric() {
        runsWithANumberForEveryMetric("limiter");
    }

    @Test
    void wakeupPrintsANumberForEveryMetric() {
        runsWithANumberForEveryMetric("wakeup");
    }

    @Test
    void fairnessPrintsANumberForEveryMetric() {
        runsWithANumberForEveryMetric("fairness");
    }

    @Test
    void groupcostPrintsANumberForEveryMetric() {
        runsWithANumberForEveryMetric("groupcost");
    }

    @Test
    void flowWorkloadsAreNamedNotRunByDefault() {
        assertThat(BenchOptions.parse().workloads()).doesNotContainAnyElementsOf(BenchOptions.FLOW_WORKLOADS);
        assertThat(BenchOptions.parse("flow").workloads()).containsExactlyElementsOf(BenchOptions.FLOW_WORKLOADS);
        assertThat(BenchOptions.parse("groupcost", "cost").workloads()).containsExactly("cost", "groupcost");
        assertThat(Workloads.flow(true)).extracting(Workload::name).containsExactlyElementsOf(BenchOptions.FLOW_WORKLOADS);
    }

    private static void runsWithANumberForEveryMetric(String workload) {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        int exit = BenchMain.run(new String[] {workload, "--quick", "--peers", "bullpen"},
                new PrintStream(captured, true, StandardCharsets.UTF_8));
        String output = captured.toString(StandardCharsets.UTF_8);

        assertThat(exit).as(output).isZero();
        List<String[]> rows = output.lines().filter(line -> line.startsWith("|"))
                .map(line -> Arrays.stream(line.split("\\|")).map(String::trim).toArray(String[]::new)).toList();
        List<Metric> metrics = Workloads.flow(true).stream().filter(w -> w.name().equals(workload)).findFirst()
                .orElseThrow().metrics();
        for (Metric metric : metrics) {
            Optional<String[]> row = rows.stream()
                    .filter(cells -> cells.length > 4 && cells[1].equals(metric.workload()) && cells[2].equals(metric.label()))
                    .findFirst();
            assertThat(row).as("row for %s / %s in%n%s", metric.workload(), metric.label(), output).isPresent();
            assertThat(row.get()[4]).as("Bullpen's %s", metric.label()).matches(NUMBER);
        }
    }
}
