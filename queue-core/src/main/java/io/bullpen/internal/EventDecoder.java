package io.bullpen.internal;

import io.bullpen.JobState;
import io.bullpen.events.ActiveEvent;
import io.bullpen.events.AddedEvent;
import io.bullpen.events.CompletedEvent;
import io.bullpen.events.DataUpdatedEvent;
import io.bullpen.events.DelayChangedEvent;
import io.bullpen.events.DelayedEvent;
import io.bullpen.events.CleanedEvent;
import io.bullpen.events.DrainedEvent;
import io.bullpen.events.DuplicatedEvent;
import io.bullpen.events.DeduplicatedEvent;
import io.bullpen.events.FailedEvent;
import io.bullpen.events.PausedEvent;
import io.bullpen.events.PriorityChangedEvent;
import io.bullpen.events.ProgressEvent;
import io.bullpen.events.QueueEvent;
import io.bullpen.events.RemovedEvent;
import io.bullpen.events.ResumedEvent;
import io.bullpen.events.RetryingEvent;
import io.bullpen.events.StalledEvent;
import io.bullpen.events.UnknownEvent;
import io.bullpen.events.WaitingEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns one entry of a queue's events stream into a typed {@link QueueEvent}, with the field
 * names the Lua scripts write (see their headers' "Events:" and {@code includes/emitEvent.lua}).
 * Never throws: an unknown name or a missing or malformed field gives an {@link UnknownEvent},
 * because one odd entry (from a newer version, or written by hand) must not stop a reader.
 * Not API.
 */
public final class EventDecoder {
    private static final Logger log = LoggerFactory.getLogger(EventDecoder.class);

    private EventDecoder() {
    }

    /**
     * Every event of one stream entry: one, or one per job for an entry that records the same
     * event of several jobs of one script call (see {@link #split(Map)}). They
     * all carry the entry's id.
     *
     * @param eventId the stream entry id, {@code <millis>-<sequence>}
     * @param f the entry's fields
     * @return the typed events, in the entry's job order
     */
    public static List<QueueEvent> decodeAll(String eventId, Map<String, String> f) {
        List<QueueEvent> events = new ArrayList<>(1);
        for (Map<String, String> one : split(f)) {
            events.add(decode(eventId, one));
        }
        return events;
    }

    /**
     * Splits an entry written by the scripts' {@code emitEvents} into one field map per job: its
     * {@code jobId} holds several ids separated by spaces (job ids never contain whitespace),
     * each job gets its own {@code jobId}, a field {@code <name>:<jobId>}
     * becomes {@code <name>} for that job (the scripts leave out one whose value is JSON null,
     * so a completed event without a return value reads as null), and the other fields are
     * shared. An entry of one job is returned as it is.
     *
     * @param f the entry's fields
     * @return one field map per job, in order
     */
    static List<Map<String, String>> split(Map<String, String> f) {
        if (!isShared(f)) {
            return List.of(f);
        }
        String ids = f.get("jobId");
        Map<String, String> shared = new LinkedHashMap<>();
        Map<String, Map<String, String>> perJob = new LinkedHashMap<>();
        for (String id : ids.split(" ")) {
            if (!id.isEmpty()) {
                Map<String, String> one = new LinkedHashMap<>();
                one.put("jobId", id);
                perJob.put(id, one);
            }
        }
        for (Map.Entry<String, String> e : f.entrySet()) {
            String name = e.getKey();
            int colon = name.lastIndexOf(':');
            Map<String, String> one = colon > 0 ? perJob.get(name.substring(colon + 1)) : null;
            if (one != null) {
                one.put(name.substring(0, colon), e.getValue());
            } else if (!name.equals("jobId")) {
                shared.put(name, e.getValue());
            }
        }
        List<Map<String, String>> out = new ArrayList<>(perJob.size());
        for (Map<String, String> one : perJob.values()) {
            Map<String, String> fields = new LinkedHashMap<>(shared);
            fields.putAll(one);
            out.add(fields);
        }
        return out;
    }

    /** Whether the entry records the same event of several jobs: a space in its jobId. */
    private static boolean isShared(Map<String, String> f) {
        String jobId = f.get("jobId");
        return jobId != null && jobId.indexOf(' ') >= 0;
    }

    /**
     * @param eventId the stream entry id, {@code <millis>-<sequence>}
     * @param f the entry's fields
     * @return the typed event, or an {@link UnknownEvent}
     */
    public static QueueEvent decode(String eventId, Map<String, String> f) {
        Instant time = timeOf(eventId);
        String name = f.get("event");
        String jobId = f.get("jobId");
        try {
            return switch (name == null ? "" : name) {
                case "added" -> new AddedEvent(eventId, time, job(jobId), f.get("name"), state(f.get("state")),
                        millis(f.getOrDefault("delay", "0")));
                case "duplicated" -> new DuplicatedEvent(eventId, time, job(jobId), f.get("name"));
                case "deduplicated" -> new DeduplicatedEvent(eventId, time, job(jobId), required(f, "deduplicationId"),
                        f.get("deduplicatedJobId"));
                case "waiting" -> new WaitingEvent(eventId, time, job(jobId), state(required(f, "prev")));
                case "active" -> new ActiveEvent(eventId, time, job(jobId));
                case "progress" -> new ProgressEvent(eventId, time, job(jobId), required(f, "data"));
                case "completed" -> new CompletedEvent(eventId, time, job(jobId), f.getOrDefault("returnValue", "null"));
                case "failed" -> new FailedEvent(eventId, time, job(jobId), f.get("failedReason"),
                        integer(required(f, "attemptsMade")), "1".equals(f.get("cancelled")),
                        "1".equals(f.get("expired")));
                case "retrying" -> new RetryingEvent(eventId, time, job(jobId), integer(required(f, "attemptsMade")),
                        millis(required(f, "delay")), f.get("failedReason"));
                case "stalled" -> new StalledEvent(eventId, time, job(jobId), integer(required(f, "stalledCount")));
                case "removed" -> new RemovedEvent(eventId, time, job(jobId), state(required(f, "prev")));
                case "drained" -> new DrainedEvent(eventId, time);
                case "cleaned" -> new CleanedEvent(eventId, time, Long.parseLong(required(f, "count")),
                        state(required(f, "state")));
                case "paused" -> new PausedEvent(eventId, time, f.get("group"));
                case "resumed" -> new ResumedEvent(eventId, time, f.get("group"));
                case "delayed" -> new DelayedEvent(eventId, time, job(jobId), millis(required(f, "delay")));
                case "delayChanged" -> new DelayChangedEvent(eventId, time, job(jobId), millis(required(f, "delay")),
                        Instant.ofEpochMilli(Long.parseLong(required(f, "due"))));
                case "priorityChanged" -> new PriorityChangedEvent(eventId, time, job(jobId),
                        integer(required(f, "priority")));
                case "dataUpdated" -> new DataUpdatedEvent(eventId, time, job(jobId));
                case "waitingChildren" -> new io.bullpen.events.WaitingChildrenEvent(eventId, time, job(jobId));
                default -> new UnknownEvent(eventId, time, jobId, name, f);
            };
        } catch (IllegalArgumentException e) {
            log.debug("stream entry {} is not a well-formed {} event ({}); delivered as unknown", eventId, name,
                    e.getMessage());
            return new UnknownEvent(eventId, time, jobId, name, f);
        }
    }

    /**
     * The views an event also stands for, in the terms BullMQ users expect: a job that became
     * ready to run is "waiting", one put in delayed is "delayed", although the stream records
     * the add, retry or stall that caused it.
     *
     * @param event a decoded stream event
     * @return the views (often none); each keeps the event's id and time
     */
    public static List<QueueEvent> viewsOf(QueueEvent event) {
        String id = event.eventId();
        Instant time = event.time();
        if (event instanceof AddedEvent a) {
            if (a.state() == JobState.DELAYED) {
                return List.of(new DelayedEvent(id, time, a.jobId(), a.delay()));
            }
            if (a.state() == JobState.WAITING || a.state() == JobState.PRIORITIZED) {
                return List.of(new WaitingEvent(id, time, a.jobId(), null));
            }
            if (a.state() == JobState.WAITING_CHILDREN) {
                return List.of(new io.bullpen.events.WaitingChildrenEvent(id, time, a.jobId()));
            }
        } else if (event instanceof RetryingEvent r) {
            return List.of(r.delay().isZero()
                    ? new WaitingEvent(id, time, r.jobId(), JobState.ACTIVE)
                    : new DelayedEvent(id, time, r.jobId(), r.delay()));
        } else if (event instanceof StalledEvent s) {
            return List.of(new WaitingEvent(id, time, s.jobId(), JobState.ACTIVE));
        }
        return List.of();
    }

    /** The millisecond part of a stream id: Redis's clock when it appended the entry. */
    static Instant timeOf(String eventId) {
        int dash = eventId.indexOf('-');
        return Instant.ofEpochMilli(Long.parseLong(dash < 0 ? eventId : eventId.substring(0, dash)));
    }

    private static String job(String jobId) {
        if (jobId == null || jobId.isEmpty()) {
            throw new IllegalArgumentException("no jobId");
        }
        return jobId;
    }

    private static String required(Map<String, String> f, String field) {
        String value = f.get(field);
        if (value == null) {
            throw new IllegalArgumentException("no " + field);
        }
        return value;
    }

    /** A state label; one from a newer version reads as UNKNOWN rather than failing the event. */
    private static JobState state(String label) {
        for (JobState s : JobState.values()) {
            if (s.label().equals(label)) {
                return s;
            }
        }
        return JobState.UNKNOWN;
    }

    private static Duration millis(String text) {
        return Duration.ofMillis(Long.parseLong(text));
    }

    private static int integer(String text) {
        return Integer.parseInt(text);
    }
}
