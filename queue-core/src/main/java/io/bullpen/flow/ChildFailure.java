package io.bullpen.flow;

/**
 * What a parent job does when one of its children fails for good (out of attempts, failed
 * unrecoverably, cancelled or removed). A property of the edge: the same child may have another
 * policy towards another parent.
 */
public enum ChildFailure {
    /**
     * The default: the parent fails for good at once, its reason naming the child and the child's
     * reason; the parent's own parents are told by the parent's own edge policies.
     */
    FAIL_PARENT,
    /** The parent runs when its other children are done and sees this child as failed. */
    IGNORE,
    /** The dependency is dropped as if it had never been added: the parent does not see this child. */
    REMOVE,
    /**
     * The parent runs as soon as this child fails; ends of its other children that arrive after the
     * parent started are recorded but do not move it.
     */
    CONTINUE;
}
