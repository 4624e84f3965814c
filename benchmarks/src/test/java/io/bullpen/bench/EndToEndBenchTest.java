package io.bullpen.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bullpen.bench.workload.EndToEndTimes;
import io.bullpen.bench.workload.Workloads;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The end-to-end workloads ({@code mixed}, {@code latency}) are named (or {@code e2e}), not run
 * by default, and {@code --duration} sets their passes. Running them for Bullpen (about 40 s) is
 * opt-in: {@code -Dbench.endToEndTest=true}.
 */
class EndToEndBenchTest {
    @Test
    void endToEndWorkloadsAreNamedNotRunByDefault() {
        assertThat(BenchOptions.parse().workloads()).doesNotContainAnyElementsOf(BenchOptions.E2E_WORKLOADS);
        assertThat(BenchOptions.parse("e2e").workloads()).containsExactly("mixed", "latency");
        assertThat(BenchOptions.parse("latency", "processing").workloads()).containsExactly("processing", "latency");
        assertThat(Workloads.endToEnd(EndToEndTimes.of(true, null))).extracting(Workload::name)
                .containsExactlyElementsOf(BenchOptions.E2E_WORKLOADS);
    }

    @Test
    void durationSetsBothPassesAndAShorterRamp() {
        assertThat(BenchOptions.parse("mixed").duration()).isNull();
        assertThat(BenchOptions.parse("mixed", "--duration", "12").duration()).isEqualTo(12);
        assertThatThrownBy(() -> BenchOptions.parse("--duration", "0")).hasMessageContaining("'0'");
        assertThat(EndToEndTimes.of(false, null)).isEqualTo(new EndToEndTimes(60, 30, 15));
        assertThat(EndToEndTimes.of(true, null)).isEqualTo(new EndToEndTimes(5, 5, 1));
        assertThat(EndToEndTimes.of(false, 12)).isEqualTo(new EndToEndTimes(12, 12, 6));
        assertThat(EndToEndTimes.of(false, 20)).isEqualTo(new EndToEndTimes(20, 20, 10));
        assertThat(EndToEndTimes.of(false, 60)).isEqualTo(new EndToEndTimes(60, 60, 15));
        assertThat(EndToEndTimes.of(true, 3)).isEqualTo(new EndToEndTimes(3, 3, 1));
    }

    @Test
    @EnabledIfSystemProperty(named = "bench.endToEndTest", matches = "true")
    void mixedAndLatencyRunForBullpen() {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        int exit = BenchMain.run(new String[] {"e2e", "--quick", "--duration", "3", "--peers", "bullpen"},
                new PrintStream(captured, true, StandardCharsets.UTF_8));
        String output = captured.toString(StandardCharsets.UTF_8);

        assertThat(exit).as(output).isZero();
        assertThat(output).contains("jobs/s end to end, 16 producers", "client CPU us/job (add + process), 1 producer",
                "add to start p99 (ms), 5,000/s", "producer behind schedule max (ms), 500/s");
        List<String[]> rows = output.lines().filter(line -> line.startsWith("| mixed") || line.startsWith("| latency"))
                .map(line -> Arrays.stream(line.split("\\|")).map(String::trim).toArray(String[]::new)).toList();
        assertThat(rows).hasSize(Workloads.endToEnd(EndToEndTimes.of(true, 3)).stream().mapToInt(w -> w.metrics().size()).sum());
        for (String[] cells : rows) {
            assertThat(cells[4]).as("Bullpen's %s", cells[2]).matches("[0-9][0-9,]*(\\.[0-9]+)?");
            if (cells[2].startsWith("jobs/s") || cells[2].startsWith("add to")) {
                assertThat(Double.parseDouble(cells[4].replace(",", ""))).as(cells[2]).isPositive();
            }
        }
    }
}
