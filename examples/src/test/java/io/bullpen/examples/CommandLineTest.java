package io.bullpen.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class CommandLineTest {

    @Test
    void readsEveryFlagInBothForms() {
        CommandLine cli = CommandLine.parse("--redis", "redis://10.0.0.5:6380", "--duration=2.5", "--port", "8080");
        assertThat(cli.redisUrl()).contains("redis://10.0.0.5:6380");
        assertThat(cli.duration()).contains(Duration.ofMillis(2_500));
        assertThat(cli.port()).hasValue(8080);
        assertThat(cli.help()).isFalse();
    }

    @Test
    void defaultsToTheLocalOrEmbeddedRedisUntilCtrlC() {
        CommandLine cli = CommandLine.parse();
        assertThat(cli.redisUrl()).isEmpty();
        assertThat(cli.duration()).isEmpty();
        assertThat(cli.port()).isEmpty();
    }

    @Test
    void namesTheBadArgument() {
        assertThatThrownBy(() -> CommandLine.parse("--duration", "0"))
                .hasMessage("--duration must be a number of seconds > 0 but was 0");
        assertThatThrownBy(() -> CommandLine.parse("--duration", "soon"))
                .hasMessage("--duration must be a number of seconds > 0 but was soon");
        assertThatThrownBy(() -> CommandLine.parse("--redis", "localhost:6379"))
                .hasMessage("--redis must be a redis:// or rediss:// URL but was localhost:6379");
        assertThatThrownBy(() -> CommandLine.parse("--port", "70000"))
                .hasMessage("--port must be a TCP port (0-65535) but was 70000");
        assertThatThrownBy(() -> CommandLine.parse("--redis")).hasMessage("--redis needs a value");
        assertThatThrownBy(() -> CommandLine.parse("--verbose")).hasMessage("unknown argument --verbose");
    }

    @Test
    void badArgumentsExitWithStatus2BeforeTouchingRedis() {
        assertThat(ExampleRunner.run("bullpen-demo", new DemoMain(), "--duration", "-1")).isEqualTo(2);
    }

    @Test
    void formatsDurationsTheWayPeopleWriteThem() {
        assertThat(Example.human(Duration.ofMillis(180))).isEqualTo("180ms");
        assertThat(Example.human(Duration.ofMillis(1_800))).isEqualTo("1.8s");
        assertThat(Example.human(Duration.ofSeconds(15))).isEqualTo("15s");
        assertThat(Example.human(Duration.ofMinutes(3))).isEqualTo("3m");
        assertThat(Example.human(Duration.ofMinutes(150))).isEqualTo("2h30m");
        assertThat(Example.human(Duration.ofHours(15))).isEqualTo("15h");
    }
}
