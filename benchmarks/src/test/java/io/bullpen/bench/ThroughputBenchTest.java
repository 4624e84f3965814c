package io.bullpen.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.bench.peer.Spread;
import io.bullpen.bench.workload.Workloads;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The throughput workloads ({@code spread}, {@code functions}, {@code producers},
 * {@code parent-child}) are named, not run by default, so {@code QuickBenchTest} keeps its run
 * time. Running them (about 30 s) is opt-in: {@code -Dbench.throughputTest=true}.
 */
class ThroughputBenchTest {
    @Test
    void throughputWorkloadsAreNamedNotRunByDefault() {
        assertThat(BenchOptions.parse().workloads()).doesNotContainAnyElementsOf(BenchOptions.THROUGHPUT_WORKLOADS);
        assertThat(BenchOptions.parse("functions", "processing", "spread").workloads())
                .containsExactly("processing", "spread", "functions");
        assertThat(Workloads.throughput(Sizes.quick(), true)).extracting(Workload::name)
                .containsExactlyElementsOf(BenchOptions.THROUGHPUT_WORKLOADS);
        assertThat(Sizes.full().spreadJobs()).isEqualTo(2_000);
        assertThat(Sizes.full().processingWarmUpJobs()).isGreaterThanOrEqualTo(50_000);
    }

    @Test
    void theBusiestWorkersShareIsInPercent() {
        assertThat(new Spread(List.of(600, 400), 1.0).busiestSharePercent()).isEqualTo(60.0);
        assertThat(new Spread(List.of(0, 0), 1.0).busiestSharePercent()).isNaN();
    }

    @Test
    @EnabledIfSystemProperty(named = "bench.throughputTest", matches = "true")
    void spreadAndFunctionsRunForBullpen() {
        String output = runForBullpen("spread", "functions");

        assertThat(output).contains("busiest worker's share %, 10 ms jobs, default", "moveToActive (1 job), FCALL");
    }

    @Test
    @EnabledIfSystemProperty(named = "bench.throughputTest", matches = "true")
    void parentChildRunsForBullpenInOneSlotAndTwo() {
        String output = runForBullpen("parent-child");

        assertThat(output).contains("flows/s, one slot", "Redis commands/flow, two slots", "Redis CPU us/flow, one slot");
    }

    @Test
    @EnabledIfSystemProperty(named = "bench.throughputTest", matches = "true")
    void producersRunForBullpenWithTheBoundsBesideThem() {
        String output = runForBullpen("producers");

        assertThat(output.lines().filter(line -> line.startsWith("| producers")))
                .as(output)
                .hasSize(17)
                .anySatisfy(line -> assertThat(line).contains("bound: round trips/s (GET), 1 caller"))
                .anySatisfy(line -> assertThat(line).contains("bound: Redis CPU us/job, addBulk of 100"))
                .noneSatisfy(line -> assertThat(line).containsAnyOf("n/a", "error"));
    }

    /** Runs the workloads with {@code --quick} for Bullpen alone: the table, after a zero exit. */
    private static String runForBullpen(String... workloads) {
        List<String> args = new ArrayList<>(List.of(workloads));
        args.addAll(List.of("--quick", "--peers", "bullpen"));
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        int exit = BenchMain.run(args.toArray(String[]::new), new PrintStream(captured, true, StandardCharsets.UTF_8));
        String output = captured.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(output).isZero();
        return output;
    }
}
