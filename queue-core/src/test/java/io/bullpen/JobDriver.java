package io.bullpen;

import io.bullpen.internal.Futures;
import io.bullpen.internal.JobFields;
import io.bullpen.internal.KeyScheme;
import io.bullpen.internal.ScriptTypes.FetchArgs;
import io.bullpen.internal.ScriptTypes.Finish;
import io.bullpen.internal.ScriptTypes.RawJob;
import io.bullpen.internal.Scripts;
import java.util.Collection;
import java.util.List;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * Plays a worker with the scripts a worker uses (queue-core tests cannot depend on the Worker):
 * take one job, report progress, complete or fail it, recover stalled jobs.
 */
final class JobDriver {
    private static final FetchArgs TAKE_ONE = new FetchArgs(1, "driver", 30_000, "job-driver", 100, 0, 1);

    private final RedissonClient redisson;
    private final KeyScheme keys;
    private final Scripts scripts;

    JobDriver(RedissonClient redisson, String queue) {
        this.redisson = redisson;
        this.keys = new KeyScheme(KeyScheme.DEFAULT_PREFIX, queue);
        this.scripts = new Scripts(redisson, keys);
    }

    /** @return the next ready job with its lock token, or null when none is ready */
    RawJob take() {
        List<RawJob> jobs = Futures.join(scripts.moveToActive(System.currentTimeMillis(), TAKE_ONE)).jobs();
        return jobs.isEmpty() ? null : jobs.get(0);
    }

    void progress(RawJob job, String json) {
        Futures.join(scripts.updateProgress(job.id(), json));
    }

    void complete(RawJob job, String returnValueJson) {
        complete(job.id(), job.lockToken(), returnValueJson);
    }

    /** Fails the attempt: retried after {@code backoffMs} while attempts are left, else failed for good. */
    void fail(RawJob job, String reason, int attempts, long backoffMs) {
        int attemptsMade = job.attemptsMade() + 1;
        Finish finish = attemptsMade >= attempts
                ? new Finish.Failed(job.id(), job.lockToken(), attemptsMade, reason, null, 10, Retention.keepAll(), null,
                        null, null, 0)
                : new Finish.Retry(job.id(), job.lockToken(), attemptsMade, reason, null, 10, backoffMs, false, null, null,
                        Retention.keepAll(), null, 0);
        Futures.join(scripts.moveToFinished(System.currentTimeMillis(), TAKE_ONE.withCount(0), finish));
    }

    /** Lets an active job's lock lapse as if its worker died, and recovers it as the stalled check would. */
    void stall(RawJob job) {
        redisson.<String>getScoredSortedSet(keys.leases(), StringCodec.INSTANCE).addIfExists(1, job.id());
        Futures.join(scripts.moveStalledJobsToWait(System.currentTimeMillis() + 60_000, 1, 100));
    }

    /**
     * Completes ready jobs one at a time, in the order they are taken, until none is left, and
     * survives connections being killed meanwhile: each round starts from what Redis holds (an
     * active job is finished with the token stored in its lock), so a call whose reply was lost
     * is neither repeated blindly nor leaves a job behind.
     *
     * @return the number of calls that failed and were recovered from
     */
    int completeAll(String returnValueJson) {
        int errors = 0;
        while (true) {
            try {
                Collection<String> active = redisson.<String>getScoredSortedSet(keys.leases(), StringCodec.INSTANCE).readAll();
                if (!active.isEmpty()) {
                    for (String id : active) {
                        String token = redisson.<String, String>getMap(keys.job(id), StringCodec.INSTANCE).get(JobFields.LOCK);
                        complete(id, token, returnValueJson);
                    }
                    continue;
                }
                RawJob job = take();
                if (job == null) {
                    return errors;
                }
                complete(job, returnValueJson);
            } catch (RuntimeException e) {
                if (++errors > 1_000) {
                    throw new IllegalStateException("job driver keeps failing", e);
                }
            }
        }
    }

    private void complete(String id, String lockToken, String returnValueJson) {
        Futures.join(scripts.moveToFinished(System.currentTimeMillis(), TAKE_ONE.withCount(0), new Finish.Completed(id,
                lockToken, 1, returnValueJson, Retention.keepAll(), null, null, null, 0)));
    }
}
