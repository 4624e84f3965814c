package io.bullpen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.core.type.TypeReference;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A queue adds only data a worker can read back as its data type: no null on a typed queue, no
 * value of another class, and no type Jackson cannot read; each refused before anything is
 * written, naming the queue and the job.
 */
@BullpenTest
class JobDataCheckTest {
    record Order(String id) {
    }

    abstract static class Shape {
        public int size;
    }

    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME)
    @JsonSubTypes(@JsonSubTypes.Type(value = Circle.class, name = "circle"))
    interface Figure {
    }

    record Circle(int radius) implements Figure {
    }

    @Test
    void nullDataOnATypedQueueIsRefusedNamingTheQueueAndTheJob(BullpenTestContext ctx) {
        Queue<Order> queue = Queue.builder(ctx.redisson(), ctx.queueName(), Order.class).build();

        assertThatThrownBy(() -> queue.add("charge", null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("job \"charge\" of queue " + queue.name())
                .hasMessageContaining("no data (null)")
                .hasMessageContaining(Order.class.getName());
        assertThatThrownBy(() -> queue.addBulk(List.of(JobSpec.of("a", new Order("1")), JobSpec.of("b", null))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("job \"b\"");
        assertThatThrownBy(() -> queue.updateData("1", null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("updateData on queue " + queue.name());

        assertThat(ctx.snapshot(queue.name()).keys()).as("nothing written").isEmpty();
    }

    @Test
    void aQueueOfVoidOrObjectTakesJobsWithoutData(BullpenTestContext ctx) {
        Queue<Void> none = Queue.builder(ctx.redisson(), ctx.newQueueName(), Void.class).build();
        Queue<Object> any = Queue.builder(ctx.redisson(), ctx.newQueueName(), Object.class).build();

        assertThat(none.getJob(none.add("tick", null).id()).orElseThrow().data()).isNull();
        assertThat(any.getJob(any.add("tick", null).id()).orElseThrow().data()).isNull();
        assertThat(any.getJob(any.add("tick", Map.of("a", 1)).id()).orElseThrow().data()).isEqualTo(Map.of("a", 1));
    }

    @Test
    void aSchedulerTemplateWithoutDataFailsAtItsUpsertNamingTheScheduler(BullpenTestContext ctx) {
        Queue<Order> queue = Queue.builder(ctx.redisson(), ctx.queueName(), Order.class).build();

        assertThatThrownBy(() -> queue.upsertJobScheduler("nightly", Repeat.every(Duration.ofMinutes(5)),
                JobTemplate.of("report", null)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("job scheduler \"nightly\"")
                .hasMessageContaining("job \"report\" of queue " + queue.name())
                .hasMessageContaining("no data (null)");
        assertThat(ctx.snapshot(queue.name()).keys()).isEmpty();
    }

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void aValueOfAnotherClassIsRefusedThoughJacksonWouldReadItAsAnEmptyOrder(BullpenTestContext ctx) {
        Queue<Order> queue = Queue.builder(ctx.redisson(), ctx.queueName(), Order.class).build();
        Queue raw = queue;

        assertThatThrownBy(() -> raw.add("charge", new Thread()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("job \"charge\" of queue " + queue.name())
                .hasMessageContaining("java.lang.Thread, is not a " + Order.class.getName());
        assertThat(ctx.snapshot(queue.name()).keys()).isEmpty();
        assertThat(queue.add("charge", new Order("A-1")).data()).isEqualTo(new Order("A-1"));
    }

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void aValueWhoseJsonTheTypeCannotReadIsRefused(BullpenTestContext ctx) {
        Queue<Map<String, Integer>> queue = Queue.builder(ctx.redisson(), ctx.queueName(),
                new TypeReference<Map<String, Integer>>() { }).build();
        Map<String, Object> words = new HashMap<>(Map.of("count", "many"));
        Queue raw = queue;

        assertThatThrownBy(() -> raw.add("count", words))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("job \"count\" of queue " + queue.name())
                .hasMessageContaining("cannot be read back from its JSON as java.util.Map<java.lang.String,java.lang.Integer>");
        assertThat(ctx.snapshot(queue.name()).keys()).isEmpty();
    }

    @Test
    void aDataTypeJacksonCannotReadIsRefusedWhenTheQueueIsBuilt(BullpenTestContext ctx) {
        String name = ctx.queueName();
        assertThatThrownBy(() -> Queue.builder(ctx.redisson(), name, Thread.class).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("queue " + name + ": its data type java.lang.Thread cannot be read back");
        assertThatThrownBy(() -> Queue.builder(ctx.redisson(), name, Shape.class).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("abstract and carries no type information");
        assertThatThrownBy(() -> Queue.builder(ctx.redisson(), name, Runnable.class).build())
                .isInstanceOf(IllegalArgumentException.class);

        // An abstract type with type information is fine, and so are the everyday types.
        Queue<Figure> figures = Queue.builder(ctx.redisson(), name, Figure.class).build();
        assertThat(figures.getJob(figures.add("draw", new Circle(2)).id()).orElseThrow().data()).isEqualTo(new Circle(2));
        Queue.builder(ctx.redisson(), name, String.class).build();
        Queue.builder(ctx.redisson(), name, int.class).build();
        Queue.builder(ctx.redisson(), name, new TypeReference<List<Order>>() { }).build();
        Queue.builder(ctx.redisson(), name, com.fasterxml.jackson.databind.JsonNode.class).build();
    }
}
