package io.bullpen;

import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.RedisKind;
import io.bullpen.testing.TestRedis;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Obliterating a queue of 100,000 jobs works in bounded chunks of about 1,000 jobs per script
 * call (counted in the server's SLOWLOG, except on an external server we must not reconfigure).
 * The slowest call's time is logged, not asserted: a time depends on the machine's load (the
 * benchmarks measure times).
 */
@BullpenTest
class ObliterateLargeQueueTest {
    private static final Logger LOG = LoggerFactory.getLogger(ObliterateLargeQueueTest.class);
    private static final int JOBS = 100_000;
    private static final int ADD_CHUNK = 5_000;

    record Order(String id) {
    }

    @Test
    @Timeout(60)
    void obliteratesAHundredThousandJobsInChunksOfAboutAThousand(BullpenTestContext ctx, TestRedis redis) throws IOException {
        Queue<Order> orders = Queue.builder(ctx.redisson(), ctx.queueName(), Order.class).clock(ctx.clock()).build();
        long addStart = System.nanoTime();
        for (int from = 0; from < JOBS; from += ADD_CHUNK) {
            List<JobSpec<Order>> specs = new ArrayList<>(ADD_CHUNK);
            for (int i = from; i < from + ADD_CHUNK; i++) {
                // A mix of states: mostly waiting, some delayed and prioritized.
                JobOptions options = switch (i % 10) {
                    case 0 -> JobOptions.builder().delay(Duration.ofHours(1)).build();
                    case 1 -> JobOptions.builder().priority(1 + i % 7).build();
                    default -> JobOptions.defaults();
                };
                specs.add(JobSpec.of("n", new Order("o" + i), options));
            }
            orders.addBulk(specs);
        }
        LOG.info("added {} jobs in {} ms", JOBS, (System.nanoTime() - addStart) / 1_000_000);
        assertThat(orders.getJobCounts().total()).isEqualTo(JOBS);

        // SLOWLOG and CONFIG SET go to one server: on a cluster that may not be the queue's master.
        boolean checkSlowlog = redis.kind() != RedisKind.EXTERNAL && !redis.isCluster();
        if (checkSlowlog) {
            // Log every call (threshold 0): each is counted, and the slowest one is reported. The
            // commands inside the scripts are logged too (a DEL and a dedupId HGET per job), so the
            // log must hold several entries per job for every EVALSHA to stay in it.
            Raw.call(redis, "CONFIG", "SET", "slowlog-log-slower-than", "0");
            Raw.call(redis, "CONFIG", "SET", "slowlog-max-len", "400000");
            Raw.call(redis, "SLOWLOG", "RESET");
        }
        long start = System.nanoTime();
        orders.obliterate(false);
        long elapsedMs = (System.nanoTime() - start) / 1_000_000;

        assertThat(ctx.snapshot(orders.name()).keys()).isEmpty();
        assertThat(Queue.listQueues(ctx.redisson())).doesNotContain(orders.name());
        if (checkSlowlog) {
            List<?> entries = (List<?>) Raw.call(redis, "SLOWLOG", "GET", "400000");
            Raw.call(redis, "CONFIG", "SET", "slowlog-log-slower-than", "10000");
            Raw.call(redis, "CONFIG", "SET", "slowlog-max-len", "128");
            long max = 0;
            String slowest = "";
            int scriptCalls = 0;
            List<Long> scriptMicros = new ArrayList<>();
            for (Object e : entries) {
                List<?> entry = (List<?>) e;
                long micros = (Long) entry.get(2);
                List<?> argv = (List<?>) entry.get(3);
                String command = String.valueOf(argv.get(0)).toUpperCase();
                if (command.startsWith("EVAL")) {
                    scriptCalls++;
                    scriptMicros.add(micros);
                }
                if (micros > max && !command.equals("SLOWLOG")) {
                    max = micros;
                    slowest = String.valueOf(argv);
                }
            }
            scriptMicros.sort(null);
            LOG.info("obliterated {} jobs in {} ms: {} script calls (median {} us), slowest single call {} us: {}", JOBS,
                    elapsedMs, scriptCalls, scriptMicros.isEmpty() ? 0 : scriptMicros.get(scriptMicros.size() / 2), max,
                    slowest.length() > 120 ? slowest.substring(0, 120) + "..." : slowest);
            assertThat(scriptCalls).as("chunks of about 1,000 jobs").isGreaterThanOrEqualTo(JOBS / 1_000);
        }
    }

    /** A minimal RESP client for the admin commands Redisson does not expose (SLOWLOG). */
    static final class Raw {
        static Object call(TestRedis redis, String... args) throws IOException {
            try (Socket socket = new Socket(redis.host(), redis.port())) {
                socket.setSoTimeout(10_000);
                OutputStream out = socket.getOutputStream();
                StringBuilder command = new StringBuilder("*").append(args.length).append("\r\n");
                for (String a : args) {
                    command.append('$').append(a.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(a).append("\r\n");
                }
                out.write(command.toString().getBytes(StandardCharsets.UTF_8));
                out.flush();
                return read(new BufferedInputStream(socket.getInputStream()));
            }
        }

        private static Object read(InputStream in) throws IOException {
            int type = in.read();
            String line = line(in);
            switch (type) {
                case '+':
                    return line;
                case '-':
                    throw new IOException("Redis error: " + line);
                case ':':
                    return Long.parseLong(line);
                case '$': {
                    int n = Integer.parseInt(line);
                    if (n < 0) {
                        return null;
                    }
                    byte[] bytes = in.readNBytes(n + 2);
                    return new String(bytes, 0, n, StandardCharsets.UTF_8);
                }
                case '*': {
                    int n = Integer.parseInt(line);
                    List<Object> items = new ArrayList<>(Math.max(n, 0));
                    for (int i = 0; i < n; i++) {
                        items.add(read(in));
                    }
                    return items;
                }
                default:
                    throw new IOException("unexpected RESP type " + (char) type);
            }
        }

        private static String line(InputStream in) throws IOException {
            StringBuilder sb = new StringBuilder();
            int c;
            while ((c = in.read()) != '\r') {
                if (c < 0) {
                    throw new IOException("connection closed");
                }
                sb.append((char) c);
            }
            in.read(); // '\n'
            return sb.toString();
        }
    }
}
