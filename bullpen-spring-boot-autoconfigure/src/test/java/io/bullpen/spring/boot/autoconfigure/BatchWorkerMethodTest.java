package io.bullpen.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bullpen.spring.BullpenWorker;
import io.bullpen.worker.JobBatch;
import io.bullpen.worker.JobBatchOptions;
import io.bullpen.worker.JobContext;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * How a {@code @BullpenWorker} method taking a {@code JobBatch<T, R>} is read: its data type, its
 * batch attributes, their precedence over {@code bullpen.queues.<queue>.batch-*}, and the startup
 * errors for values and signatures that cannot work, each naming the method and the value.
 */
class BatchWorkerMethodTest {
    record Row(String id) {
    }

    static class Rows {
        @BullpenWorker(queue = "rows", batchSize = "${rows.size:}", batchMinSize = "${rows.min:}",
                batchMaxWait = "${rows.wait:}")
        String insert(JobBatch<Row, String> batch) {
            return "inserted";
        }
    }

    static class VoidRows {
        @BullpenWorker(queue = "rows")
        void insert(JobBatch<Row, Void> batch) {
        }
    }

    static class ListData {
        @BullpenWorker(queue = "lists")
        int count(List<Row> rows) {
            return rows.size();
        }
    }

    static class BatchAttributesOnAJobMethod {
        @BullpenWorker(queue = "rows", batchSize = "5", batchMaxWait = "1s")
        void insert(JobContext<Row> job) {
        }
    }

    static class BatchAndData {
        @BullpenWorker(queue = "rows")
        void insert(JobBatch<Row, Void> batch, Row row) {
        }
    }

    static class WrongResult {
        @BullpenWorker(queue = "rows")
        Integer insert(JobBatch<Row, String> batch) {
            return 1;
        }
    }

    static class RawBatch {
        @SuppressWarnings("rawtypes")
        @BullpenWorker(queue = "rows")
        void insert(JobBatch batch) {
        }
    }

    private static StandardEnvironment env(Map<String, Object> values) {
        StandardEnvironment env = new StandardEnvironment();
        env.getPropertySources().addFirst(new MapPropertySource("test", values));
        return env;
    }

    private static WorkerMethod read(Class<?> type, Map<String, Object> values) {
        List<WorkerMethod> methods = WorkerMethod.find("bean", type, env(values));
        assertThat(methods).hasSize(1);
        return methods.get(0);
    }

    private static BullpenProperties.QueueSettings settings(Integer size, Integer minSize, Duration maxWait,
                                                            Boolean sameGroup) {
        BullpenProperties.QueueSettings s = new BullpenProperties.QueueSettings();
        s.setBatchSize(size);
        s.setBatchMinSize(minSize);
        s.setBatchMaxWait(maxWait);
        s.setBatchSameGroup(sameGroup);
        return s;
    }

    @Test
    void aJobBatchParameterMakesABatchWorkerWhoseDataTypeIsItsFirstTypeArgument() {
        WorkerMethod m = read(Rows.class, Map.of());
        assertThat(m.batch()).isEqualTo(new WorkerBatch(null, null, null));
        assertThat(m.takesContext()).isFalse();
        assertThat(m.dataType().getType()).isEqualTo(Row.class);
        assertThat(read(VoidRows.class, Map.of()).batch()).isNotNull();
    }

    @Test
    void aListParameterIsAPerJobWorkerWhoseDataIsAList() {
        WorkerMethod m = read(ListData.class, Map.of());
        assertThat(m.batch()).isNull();
        assertThat(m.dataType().getType()).isEqualTo(ResolvableType.forClassWithGenerics(List.class, Row.class).getType());
    }

    @Test
    void attributesResolvePlaceholdersAndParseDurations() {
        WorkerMethod m = read(Rows.class, Map.of("rows.size", "100", "rows.min", "10", "rows.wait", "500ms"));
        assertThat(m.batch()).isEqualTo(new WorkerBatch(100, 10, Duration.ofMillis(500)));
        assertThat(read(Rows.class, Map.of("rows.wait", "PT0.5S")).batch().maxWait()).isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void withoutAttributesOrPropertiesTheDefaultsApply() {
        assertThat(new WorkerBatch(null, null, null).options("rows", null))
                .isEqualTo(JobBatchOptions.of(10).minSize(1).maxWait(Duration.ofSeconds(1)).sameGroup(false));
        assertThat(new WorkerBatch(null, null, null).options("rows", new BullpenProperties.QueueSettings()))
                .isEqualTo(JobBatchOptions.of(10));
    }

    @Test
    void propertiesApplyWhereTheAnnotationSetsNothingAndTheAnnotationWinsWhereItDoes() {
        BullpenProperties.QueueSettings props = settings(50, 5, Duration.ofSeconds(3), true);
        assertThat(new WorkerBatch(null, null, null).options("rows", props))
                .isEqualTo(JobBatchOptions.of(50).minSize(5).maxWait(Duration.ofSeconds(3)).sameGroup(true));
        assertThat(new WorkerBatch(100, null, Duration.ofMillis(200)).options("rows", props))
                .isEqualTo(JobBatchOptions.of(100).minSize(5).maxWait(Duration.ofMillis(200)).sameGroup(true));
        assertThat(new WorkerBatch(20, 20, null).options("rows", props))
                .isEqualTo(JobBatchOptions.of(20).minSize(20).maxWait(Duration.ofSeconds(3)).sameGroup(true));
    }

    @Test
    void badAttributeValuesFailNamingTheMethodAndTheValue() {
        assertThatThrownBy(() -> read(Rows.class, Map.of("rows.size", "0")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("@BullpenWorker bean 'bean' method Rows.insert(JobBatch): batchSize must be >= 1 but was 0");
        assertThatThrownBy(() -> read(Rows.class, Map.of("rows.size", "abc")))
                .hasMessageContaining("method Rows.insert(JobBatch)")
                .hasMessageContaining("batchSize must be a number but was \"abc\"");
        assertThatThrownBy(() -> read(Rows.class, Map.of("rows.min", "-1")))
                .hasMessageContaining("batchMinSize must be >= 1 but was -1");
        assertThatThrownBy(() -> read(Rows.class, Map.of("rows.size", "5", "rows.min", "6")))
                .hasMessageContaining("method Rows.insert(JobBatch)")
                .hasMessageContaining("batchMinSize must be between 1 and batchSize 5 but was 6");
        assertThatThrownBy(() -> read(Rows.class, Map.of("rows.wait", "soon")))
                .hasMessageContaining("method Rows.insert(JobBatch)")
                .hasMessageContaining("batchMaxWait must be a duration such as \"500ms\" or \"PT0.5S\" but was \"soon\"");
        assertThatThrownBy(() -> read(Rows.class, Map.of("rows.wait", "-1s")))
                .hasMessageContaining("batchMaxWait must be >= 0 but was \"-1s\"");
    }

    @Test
    void aMinimumSizeAboveTheSizeFailsNamingWhereEachCameFrom() {
        assertThatThrownBy(() -> new WorkerBatch(null, 20, null).options("rows", null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("batchMinSize must be between 1 and the batch size 10 (the default) but was 20");
        assertThatThrownBy(() -> new WorkerBatch(null, null, null).options("rows", settings(5, 6, null, null)))
                .hasMessage("bullpen.queues.rows.batch-min-size must be between 1 and the batch size 5 "
                        + "(bullpen.queues.rows.batch-size) but was 6");
        assertThatThrownBy(() -> new WorkerBatch(4, null, null).options("rows", settings(null, 6, null, null)))
                .hasMessage("bullpen.queues.rows.batch-min-size must be between 1 and the batch size 4 (batchSize) "
                        + "but was 6");
        assertThatThrownBy(() -> new WorkerBatch(null, null, null).options("rows", settings(0, null, null, null)))
                .hasMessage("bullpen.queues.rows.batch-size must be >= 1 but was 0");
        assertThatThrownBy(() -> new WorkerBatch(null, null, null).options("rows", settings(null, 0, null, null)))
                .hasMessage("bullpen.queues.rows.batch-min-size must be between 1 and the batch size 10 (the default) "
                        + "but was 0");
        assertThatThrownBy(() -> new WorkerBatch(null, null, null)
                .options("rows", settings(null, null, Duration.ofSeconds(-1), null)))
                .hasMessage("bullpen.queues.rows.batch-max-wait must be >= 0 but was -1000ms");
    }

    @Test
    void signaturesThatCannotWorkFailNamingTheMethod() {
        assertThatThrownBy(() -> read(BatchAttributesOnAJobMethod.class, Map.of()))
                .hasMessage("@BullpenWorker bean 'bean' method BatchAttributesOnAJobMethod.insert(JobContext): "
                        + "batchSize = \"5\", batchMaxWait = \"1s\": the batch attributes apply to a batch worker, "
                        + "a method taking a JobBatch<T, R>, but this method takes "
                        + "io.bullpen.worker.JobContext<io.bullpen.spring.boot.autoconfigure.BatchWorkerMethodTest$Row>");
        assertThatThrownBy(() -> read(BatchAndData.class, Map.of()))
                .hasMessageContaining("method BatchAndData.insert(JobBatch, Row)")
                .hasMessageContaining("a batch worker must take exactly one parameter, the JobBatch<T, R>")
                .hasMessageContaining("but takes 2");
        assertThatThrownBy(() -> read(WrongResult.class, Map.of()))
                .hasMessageContaining("method WrongResult.insert(JobBatch)")
                .hasMessageContaining("it returns Integer")
                .hasMessageContaining("takes results of type String: return String");
        assertThatThrownBy(() -> read(RawBatch.class, Map.of()))
                .hasMessageContaining("method RawBatch.insert(JobBatch)")
                .hasMessageContaining("cannot be resolved: declare a concrete type as JobBatch<T, R>");
    }
}
