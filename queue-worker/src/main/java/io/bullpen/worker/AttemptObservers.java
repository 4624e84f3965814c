package io.bullpen.worker;

import io.bullpen.Job;
import io.bullpen.instrument.Instrumentation;
import io.bullpen.instrument.Instrumentation.Processing;
import io.bullpen.internal.Instrumentations;
import io.bullpen.internal.JobFields;
import io.bullpen.internal.TraceHeaders;
import io.bullpen.internal.WireFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The instrumentations' view of one attempt on the processor's thread:
 * {@link Instrumentation#processStarting} with the headers stored with the job (read from the
 * taken hash, no call of its own) right before the processor, {@link Processing#ended} right after,
 * on the same thread (so a scope opened by the first is closed by the second). A worker without
 * instrumentations gets {@link #NONE} and does nothing more per attempt.
 */
final class AttemptObservers {
    private static final Logger log = LoggerFactory.getLogger(AttemptObservers.class);
    static final AttemptObservers NONE = new AttemptObservers(List.of());

    private final List<Processing> endings;

    private AttemptObservers(List<Processing> endings) {
        this.endings = endings;
    }

    static AttemptObservers open(List<Instrumentation> all, String queue, Job<?> job) {
        if (all.isEmpty()) {
            return NONE;
        }
        Map<String, String> headers = TraceHeaders.decode(WireFormat.fields(job).get(JobFields.TRACE_CONTEXT));
        List<Processing> endings = new ArrayList<>(1);
        Instrumentations.each(all, "processStarting", i -> {
            Processing ending = i.processStarting(queue, job, headers);
            if (ending != null && ending != Processing.NONE) {
                endings.add(ending);
            }
        });
        return endings.isEmpty() ? NONE : new AttemptObservers(endings);
    }

    /** The processor returned ({@code error} null) or threw; ends in reverse order of the starts. */
    void ended(Throwable error) {
        for (int i = endings.size() - 1; i >= 0; i--) {
            try {
                endings.get(i).ended(error);
            } catch (RuntimeException | LinkageError e) {
                log.warn("instrumentation threw in processEnded; ignored", e);
            }
        }
    }
}
