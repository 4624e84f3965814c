package io.bullpen.examples;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The flags every example's {@code main} takes: {@code --redis URL}, {@code --duration SECONDS},
 * {@code --port N} (the dashboard's port) and {@code --help}. {@link ExampleRunner} acts on
 * them.
 */
public final class CommandLine {
    private final String redisUrl;
    private final Duration duration;
    private final Integer port;
    private final boolean help;

    private CommandLine(String redisUrl, Duration duration, Integer port, boolean help) {
        this.redisUrl = redisUrl;
        this.duration = duration;
        this.port = port;
        this.help = help;
    }

    /**
     * Parses the flags; each takes its value as the next argument or after {@code =}.
     *
     * @param args the arguments
     * @return the parsed command line
     * @throws IllegalArgumentException naming the bad argument
     */
    public static CommandLine parse(String... args) {
        String redisUrl = null;
        Duration duration = null;
        Integer port = null;
        boolean help = false;
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            String value = null;
            int eq = flag.indexOf('=');
            if (flag.startsWith("--") && eq > 0) {
                value = flag.substring(eq + 1);
                flag = flag.substring(0, eq);
            }
            switch (flag) {
                case "--help", "-h" -> help = true;
                case "--redis" -> {
                    redisUrl = value != null ? value : valueOf(args, ++i, flag);
                    if (!redisUrl.startsWith("redis://") && !redisUrl.startsWith("rediss://")) {
                        throw new IllegalArgumentException("--redis must be a redis:// or rediss:// URL but was " + redisUrl);
                    }
                }
                case "--duration" -> duration = seconds(value != null ? value : valueOf(args, ++i, flag));
                case "--port" -> port = port(value != null ? value : valueOf(args, ++i, flag));
                default -> throw new IllegalArgumentException("unknown argument " + flag);
            }
        }
        return new CommandLine(redisUrl, duration, port, help);
    }

    private static String valueOf(String[] args, int i, String flag) {
        if (i >= args.length) {
            throw new IllegalArgumentException(flag + " needs a value");
        }
        return args[i];
    }

    private static Duration seconds(String text) {
        try {
            BigDecimal seconds = new BigDecimal(text);
            if (seconds.signum() > 0) {
                return Duration.ofMillis(seconds.movePointRight(3).longValue());
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("--duration must be a number of seconds > 0 but was " + text);
    }

    private static int port(String text) {
        try {
            int port = Integer.parseInt(text);
            if (port >= 0 && port <= 65_535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("--port must be a TCP port (0-65535) but was " + text);
    }

    /**
     * @param command the command's name
     * @return the usage text
     */
    public static String usage(String command) {
        return "usage: " + command + " [--redis URL] [--duration SECONDS] [--port N]\n"
                + "  --redis URL         the Redis to use (default: " + RedisLauncher.LOCAL_URL + " when something\n"
                + "                      answers there, else an embedded Redis started for this run)\n"
                + "  --duration SECONDS  stop after this long and exit 0 (default: run until Ctrl-C)\n"
                + "  --port N            serve the dashboard on this port (the demo: default 8080; 0 = any free port)\n";
    }

    /** @return the {@code --redis} URL, if given */
    public Optional<String> redisUrl() {
        return Optional.ofNullable(redisUrl);
    }

    /** @return the {@code --duration}, if given */
    public Optional<Duration> duration() {
        return Optional.ofNullable(duration);
    }

    /** @return the {@code --port}, if given */
    public OptionalInt port() {
        return port == null ? OptionalInt.empty() : OptionalInt.of(port);
    }

    /** @return whether {@code --help} was given */
    public boolean help() {
        return help;
    }
}
