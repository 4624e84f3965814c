package io.bullpen;

import com.fasterxml.jackson.core.type.TypeReference;
import io.bullpen.internal.AddObservers;
import io.bullpen.internal.JsonCodec;
import io.bullpen.internal.RedisCalls;
import io.bullpen.internal.SchedulerFields;
import io.bullpen.internal.SchedulerScripts;
import io.bullpen.internal.Validation;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/** {@link Queue}'s job scheduler methods: encode a definition, upsert, list, remove. */
final class QueueSchedulers<T> {
    private final String queue;
    private final SchedulerScripts scripts;
    private final JobAdder<T> adder;
    private final Clock clock;
    private final Consumer<String> register;

    QueueSchedulers(String queue, SchedulerScripts scripts, JobAdder<T> adder, Clock clock, Consumer<String> register) {
        this.queue = queue;
        this.scripts = scripts;
        this.adder = adder;
        this.clock = clock;
        this.register = register;
    }

    /** @param owner the declaring configuration's owner, null for none (the API: clears the mark) */
    boolean upsert(String id, Repeat repeat, JobTemplate<T> template, String owner) {
        Validation.jobId(id);
        Objects.requireNonNull(repeat, "repeat");
        Objects.requireNonNull(template, "template");
        String data = adder.encodeData(template.name(), id, template.data());
        String repeatJson = JsonCodec.encodeValue(repeat.describe(), "repeat");
        Instant now = clock.instant();
        long first = repeat.checkedFirstRun(id, now).toEpochMilli();
        long following = repeat.nextRun(Instant.ofEpochMilli(first), Instant.ofEpochMilli(first))
                .map(Instant::toEpochMilli).orElse(0L);
        JobOptions options = adder.defaults().apply(template.options(), false);
        var definition = new SchedulerScripts.Definition(template.name(), data,
                JsonCodec.encodeOptions(options), options.priority(), repeatJson,
                repeat.misfire().name(), repeat.limit().orElse(-1L),
                repeat.endAt().map(Instant::toEpochMilli).orElse(-1L));
        register.accept("upsertJobScheduler");
        // Tracing: the upsert's context goes with the definition to every iteration it makes.
        AddObservers observers = adder.observeUpsert(template.name());
        List<Object> reply;
        try {
            reply = RedisCalls.join(queue, "upsertJobScheduler", scripts.upsertJobScheduler(now.toEpochMilli(), id,
                    definition, first, following, observers == null ? null : observers.traceContext(), owner));
        } catch (RuntimeException e) {
            if (observers != null) {
                observers.ended(List.of(), e);
            }
            throw e;
        }
        if (observers != null) {
            String pending = String.valueOf(reply.get(1));
            observers.ended(pending.isEmpty() ? List.of() : List.of(pending), null);
        }
        return ((Number) reply.get(0)).longValue() == 1;
    }

    List<JobScheduler> list() {
        List<JobScheduler> out = new ArrayList<>();
        for (Map.Entry<String, Map<String, String>> e : RedisCalls.join(queue, "getJobSchedulers", scripts.getJobSchedulers())) {
            Map<String, String> f = e.getValue();
            if (f.isEmpty()) {
                continue;
            }
            Repeat repeat = Repeat.fromDescription(JsonCodec.decode(f.get(SchedulerFields.REPEAT),
                    JsonCodec.type(new TypeReference<Map<String, Object>>() { })));
            long next = f.get(SchedulerFields.NEXT) == null ? -1 : Long.parseLong(f.get(SchedulerFields.NEXT));
            String pending = f.getOrDefault(SchedulerFields.JOB_ID, "");
            out.add(new JobScheduler(e.getKey(), f.get(SchedulerFields.NAME), repeat,
                    next > 0 ? Optional.of(Instant.ofEpochMilli(next)) : Optional.empty(),
                    Long.parseLong(f.getOrDefault(SchedulerFields.ITERATIONS, "0")),
                    pending.isEmpty() ? Optional.empty() : Optional.of(pending)));
        }
        out.sort(Comparator.comparing((JobScheduler j) -> j.nextRun().orElse(Instant.MAX)));
        return out;
    }

    /** @param owner null: remove whoever wrote it; else only when it carries this owner's mark */
    boolean remove(String id, String owner) {
        return RedisCalls.join(queue, "removeJobScheduler",
                scripts.removeJobScheduler(Objects.requireNonNull(id, "id"), owner));
    }

    /** @return the ids of the schedulers that carry this owner's mark */
    List<String> idsOwnedBy(String owner) {
        List<String> ids = new ArrayList<>();
        for (Map.Entry<String, Map<String, String>> e : RedisCalls.join(queue, "getJobSchedulers", scripts.getJobSchedulers())) {
            if (owner.equals(e.getValue().get(SchedulerFields.OWNER))) {
                ids.add(e.getKey());
            }
        }
        return ids;
    }
}
