package io.bullpen.tracing;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * The names and attributes of Bullpen's observations, after OpenTelemetry's messaging semantic
 * conventions. Observation names {@code bullpen.send} and {@code bullpen.process} (what a meter
 * handler names its timers), span names {@code send <queue>} and {@code process <queue>}.
 *
 * <p>Low cardinality (span attributes and meter tags): {@code messaging.system} = {@code bullpen},
 * {@code messaging.destination.name} = the queue, {@code messaging.operation.type} = {@code send} |
 * {@code process}, {@code messaging.operation.name} = the same. High cardinality (spans only):
 * {@code messaging.message.id} = the job id (a single add, every attempt),
 * {@code messaging.batch.message_count} (a bulk add), {@code bullpen.scheduler.id} (an attempt of a
 * job scheduler's iteration), {@code error.type} = the exception's class
 * (only on failure: a span attribute, not a meter tag, so a timer's tag keys never change; meter
 * handlers add their own {@code error} tag).
 *
 * <p>Extend it, or give your own {@link ObservationConvention} to {@link BullpenTracing.Builder}.
 */
public class BullpenTracingConvention {
    /** {@code messaging.system}. */
    public static final String SYSTEM = "messaging.system";
    /** {@code messaging.destination.name}. */
    public static final String DESTINATION = "messaging.destination.name";
    /** {@code messaging.operation.type}. */
    public static final String OPERATION_TYPE = "messaging.operation.type";
    /** {@code messaging.operation.name}. */
    public static final String OPERATION_NAME = "messaging.operation.name";
    /** {@code messaging.message.id}. */
    public static final String MESSAGE_ID = "messaging.message.id";
    /** {@code messaging.batch.message_count}. */
    public static final String BATCH_COUNT = "messaging.batch.message_count";
    /** {@code bullpen.scheduler.id}: the job scheduler that made the attempt's job. */
    public static final String SCHEDULER_ID = "bullpen.scheduler.id";
    /** {@code error.type}. */
    public static final String ERROR_TYPE = "error.type";
    /** The value of {@code messaging.system}. */
    public static final String SYSTEM_VALUE = "bullpen";

    /** Not instantiable: holds the two default conventions and the keys. */
    protected BullpenTracingConvention() {
    }

    static KeyValues errorType(Observation.Context context) {
        Throwable error = context.getError();
        return error == null ? KeyValues.empty() : KeyValues.of(ERROR_TYPE, error.getClass().getName());
    }

    /** The default convention of {@code send <queue>} observations. */
    public static class Send implements ObservationConvention<BullpenSendContext> {
        /** The shared instance. */
        public static final Send INSTANCE = new Send();

        /** A convention; extend it to change a part. */
        public Send() {
        }

        @Override
        public String getName() {
            return "bullpen.send";
        }

        @Override
        public String getContextualName(BullpenSendContext context) {
            return "send " + context.queue();
        }

        @Override
        public KeyValues getLowCardinalityKeyValues(BullpenSendContext context) {
            return KeyValues.of(KeyValue.of(SYSTEM, SYSTEM_VALUE), KeyValue.of(DESTINATION, context.queue()),
                    KeyValue.of(OPERATION_TYPE, "send"), KeyValue.of(OPERATION_NAME, "send"));
        }

        @Override
        public KeyValues getHighCardinalityKeyValues(BullpenSendContext context) {
            KeyValues values = errorType(context);
            if (context.bulk()) {
                values = values.and(BATCH_COUNT, Integer.toString(context.jobCount()));
            } else if (context.jobId() != null) {
                values = values.and(MESSAGE_ID, context.jobId());
            }
            return values;
        }

        @Override
        public boolean supportsContext(Observation.Context context) {
            return context instanceof BullpenSendContext;
        }
    }

    /** The default convention of {@code process <queue>} observations. */
    public static class Process implements ObservationConvention<BullpenProcessContext> {
        /** The shared instance. */
        public static final Process INSTANCE = new Process();

        /** A convention; extend it to change a part. */
        public Process() {
        }

        @Override
        public String getName() {
            return "bullpen.process";
        }

        @Override
        public String getContextualName(BullpenProcessContext context) {
            return "process " + context.queue();
        }

        @Override
        public KeyValues getLowCardinalityKeyValues(BullpenProcessContext context) {
            return KeyValues.of(KeyValue.of(SYSTEM, SYSTEM_VALUE), KeyValue.of(DESTINATION, context.queue()),
                    KeyValue.of(OPERATION_TYPE, "process"), KeyValue.of(OPERATION_NAME, "process"));
        }

        @Override
        public KeyValues getHighCardinalityKeyValues(BullpenProcessContext context) {
            KeyValues values = errorType(context).and(MESSAGE_ID, context.job().id());
            return context.job().schedulerId().map(id -> values.and(SCHEDULER_ID, id)).orElse(values);
        }

        @Override
        public boolean supportsContext(Observation.Context context) {
            return context instanceof BullpenProcessContext;
        }
    }
}
