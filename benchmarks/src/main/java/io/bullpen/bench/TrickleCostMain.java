package io.bullpen.bench;

import io.bullpen.Job;
import io.bullpen.Queue;
import io.bullpen.bench.peer.bullpen.Payload;
import io.bullpen.worker.Worker;
import io.bullpen.worker.WorkerListener;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Redis's cost of a job at a trickle, on a redis-server run under {@code valgrind --tool=callgrind}
 * by the caller: {@code java -cp benchmarks/target/bullpen-bench.jar io.bullpen.bench.TrickleCostMain
 * PORT JOBS PID}. Each job is added with {@code Queue.add} to an idle worker (concurrency 10),
 * and the next is added 5 ms after its completion, so every job pays the whole path: the add,
 * the worker's wake-up, its take and its finish (whose take finds the queue empty). After 100
 * such jobs it zeroes callgrind's counters, runs JOBS jobs and dumps them
 * ({@code callgrind_control -d PID}). {@code benchmarks/trickle-cost.sh} starts the server, runs
 * this and BullMQ's {@code peers/bullmq/trickle-cost.js} (the same steps) and prints
 * instructions and requests per job.
 */
public final class TrickleCostMain {
    private static final int WARM_UP_JOBS = 100;

    private TrickleCostMain() {
    }

    /**
     * @param args port, jobs, the callgrind process's pid
     * @throws Exception on failure
     */
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int jobs = Integer.parseInt(args[1]);
        String pid = args[2];
        Config config = new Config();
        config.useSingleServer().setAddress("redis://127.0.0.1:" + port).setTimeout(30_000);
        RedissonClient redisson = Redisson.create(config);
        try {
            Queue<Payload> queue = Queue.builder(redisson, "trickle", Payload.class).build();
            Semaphore completed = new Semaphore(0);
            Worker<Payload, Object> worker = Worker.builder(redisson, queue.name(), Payload.class)
                    .processor(ctx -> null)
                    .concurrency(10)
                    .listener(new WorkerListener<>() {
                        @Override
                        public void onCompleted(Job<Payload> job, Object result) {
                            completed.release();
                        }
                    })
                    .build()
                    .start();
            try {
                run(queue, completed, WARM_UP_JOBS);
                callgrind("-z", pid);
                run(queue, completed, jobs);
                callgrind("-d", pid);
            } finally {
                worker.close();
            }
        } finally {
            redisson.shutdown();
        }
    }

    private static void run(Queue<Payload> queue, Semaphore completed, int jobs) throws InterruptedException {
        for (int i = 0; i < jobs; i++) {
            queue.add("noop", new Payload(i));
            if (!completed.tryAcquire(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("job " + i + " did not complete within 60 s");
            }
            // The worker back in its wait before the next add.
            TimeUnit.MILLISECONDS.sleep(5);
        }
    }

    private static void callgrind(String what, String pid) throws Exception {
        Process p = new ProcessBuilder("callgrind_control", what, pid).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (p.waitFor() != 0) {
            throw new IllegalStateException("callgrind_control " + what + " " + pid + " exited with " + p.exitValue());
        }
    }
}
