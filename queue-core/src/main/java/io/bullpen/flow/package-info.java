/**
 * Flows: parent jobs that run after their children, in any queues. {@link io.bullpen.flow.FlowProducer}
 * adds a tree or DAG of {@link io.bullpen.flow.FlowJob}s; each edge carries a
 * {@link io.bullpen.flow.ChildFailure} policy saying what the parent does when that child fails for
 * good. A parent waits in {@link io.bullpen.JobState#WAITING_CHILDREN} until none of its children is
 * pending, then runs like any job and reads its children's outcomes ({@link io.bullpen.flow.ChildResult}),
 * which are copied to the parent when each child ends.
 */
package io.bullpen.flow;
