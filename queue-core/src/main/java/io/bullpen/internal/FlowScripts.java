package io.bullpen.internal;

import static io.bullpen.internal.ScriptReplies.num;
import static io.bullpen.internal.ScriptReplies.str;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.bullpen.internal.ScriptTypes.AddResult;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.redisson.api.RScript.ReturnType;
import org.redisson.api.RedissonClient;

/**
 * The flow scripts of one queue: add a flow's jobs of this queue (addFlow, and addFlowChildren
 * for the rest of a large fan-out's children), apply a child's end
 * to a parent here (childEnded), page a parent's children (getChildren), and the outbox of child
 * ends bound for parents in other slots. Not API.
 */
public final class FlowScripts {
    private final RedissonClient redisson;
    private final ScriptRunner runner;
    private final KeyScheme k;
    private final ScriptKeys scriptKeys;
    private final ScriptArgs scriptArgs = new ScriptArgs();

    /**
     * One job of a flow for addFlow.
     *
     * @param id the job id (always chosen before the call, so a repeated call adds nothing twice)
     * @param parents "<queue>:<id>:<index>" per parent (index: this job's place among its
     *     children), one per line; "" = none
     * @param children "<policy><queue>:<id>" per child (policy F, I, R or C), one per line; "" = none
     * @param childCount all the job's children when {@code children} holds only the first of them
     *     (the rest follow with {@link #addFlowChildren}); 0 = those given
     * @param flowId the flow that adds the rest of the children; "" when {@code children} holds them all
     * @param tc the flow add's trace headers as stored (see {@link TraceHeaders}); null when none
     *     (left out of a staged chunk's JSON, and nothing is stored)
     */
    public record FlowRecord(String id, String name, String data, String opts, long delayMs, int priority,
                             boolean lifo, String group, String parents, String children, long childCount,
                             String flowId, @JsonInclude(JsonInclude.Include.NON_NULL) String tc) {

        /** A job without trace headers. */
        public FlowRecord(String id, String name, String data, String opts, long delayMs, int priority,
                          boolean lifo, String group, String parents, String children, long childCount,
                          String flowId) {
            this(id, name, data, opts, delayMs, priority, lifo, group, parents, children, childCount, flowId, null);
        }

        /** A job whose children are all given here. */
        public FlowRecord(String id, String name, String data, String opts, long delayMs, int priority,
                          boolean lifo, String group, String parents, String children) {
            this(id, name, data, opts, delayMs, priority, lifo, group, parents, children, 0, "");
        }
    }

    /**
     * The next children of a parent whose children are too many for one call (addFlowChildren).
     *
     * @param parentId the parent, created by addFlow with its first children
     * @param flowId the flow adding it
     * @param start the index of the first child given (the children recorded before)
     * @param last whether these are the parent's last children
     * @param children "<policy><queue>:<id>" per child, one per line
     */
    public record MoreChildren(String parentId, String flowId, long start, boolean last, String children) {
    }

    /**
     * One child of a parent as getChildren reads it.
     *
     * @param child "<queue>:<id>"
     * @param outcome the copied outcome ({@code <c|f><length of name>:<name><value>}), null while pending
     * @param policy the edge policy code (F, I, R or C) while pending, null once ended
     */
    public record ChildEntry(String child, String outcome, String policy) {
    }

    /**
     * A page of children.
     *
     * @param total how many children the parent has in all
     * @param next the index after this page, to start the next one at
     * @param last whether no child follows this page
     * @param entries the page
     */
    public record ChildPage(long total, long next, boolean last, List<ChildEntry> entries) {
    }

    /**
     * @param redisson the client
     * @param keys the queue's keys
     */
    public FlowScripts(RedissonClient redisson, KeyScheme keys) {
        this.redisson = redisson;
        this.runner = new ScriptRunner(redisson);
        this.k = keys;
        this.scriptKeys = new ScriptKeys(keys);
    }

    /** @return the queue's keys */
    public KeyScheme keys() {
        return k;
    }

    /** addFlow: adds this queue's jobs of a flow, parents before children; one result per job. */
    public CompletionStage<List<AddResult>> addFlow(long now, List<FlowRecord> jobs) {
        List<Object> args = scriptArgs.named("addFlow").set("jobKeyPrefix", k.jobPrefix()).set("now", Long.toString(now))
                .into(new ArrayList<>(2 + jobs.size() * 13));
        for (FlowRecord j : jobs) {
            args.add(j.id());
            args.add(j.name());
            args.add(j.data());
            args.add(j.opts());
            args.add(Long.toString(j.delayMs()));
            args.add(Integer.toString(j.priority()));
            args.add(j.lifo() ? "1" : "0");
            args.add(j.group() == null ? "" : j.group());
            args.add(j.parents());
            args.add(j.children());
            args.add(j.childCount() > 0 ? Long.toString(j.childCount()) : "");
            args.add(j.flowId() == null ? "" : j.flowId());
            args.add(j.tc() == null ? "" : j.tc());
        }
        return runner.<List<Object>>run("addFlow", ReturnType.LIST, scriptKeys.of("addFlow"), args.toArray())
                .thenApply(reply -> {
                    List<AddResult> results = new ArrayList<>(reply.size());
                    for (Object entry : reply) {
                        List<?> pair = (List<?>) entry;
                        results.add(new AddResult(str(pair.get(0)), num(pair.get(1)) == 1, false));
                    }
                    return results;
                });
    }

    /**
     * addFlowChildren: appends the next children of a parent that addFlow created with its first
     * ones.
     *
     * @return the children appended; 0 when the call was applied before
     */
    public CompletionStage<Long> addFlowChildren(MoreChildren more) {
        List<Object> args = scriptArgs.named("addFlowChildren").set("flowId", more.flowId())
                .set("start", Long.toString(more.start())).set("last", more.last() ? "1" : "0")
                .set("children", more.children()).into(new ArrayList<>(4));
        return runner.<Object>run("addFlowChildren", ReturnType.LONG, scriptKeys.of("addFlowChildren", "job",
                k.job(more.parentId())), args.toArray()).thenApply(ScriptReplies::num);
    }

    /**
     * childEnded: applies one child's end to a parent of this queue.
     *
     * @return 1 applied, 0 not pending (applied before, or not waited for), -1 no such parent
     */
    public CompletionStage<Long> childEnded(long now, String parentId, long index, String child, String name,
                                            String state, String value) {
        List<Object> args = scriptArgs.named("childEnded").set("jobKeyPrefix", k.jobPrefix()).set("now", Long.toString(now))
                .set("parentId", parentId).set("index", Long.toString(index)).set("child", child).set("name", name).set("state", state).set("value", value)
                .into(new ArrayList<>(8));
        return runner.<Object>run("childEnded", ReturnType.LONG, scriptKeys.of("childEnded"), args.toArray())
                .thenApply(ScriptReplies::num);
    }

    /** getChildren: a page of a parent's children after {@code after} (null = from the first). */
    public CompletionStage<ChildPage> getChildren(String parentId, String after, int limit) {
        return getChildren(parentId, after, -1, limit);
    }

    /**
     * getChildren: a page of a parent's children after {@code after}, whose index among them the
     * caller read from the child's par entry ({@code hint}; -1 = unknown: the script searches).
     */
    public CompletionStage<ChildPage> getChildren(String parentId, String after, long hint, int limit) {
        return getChildren(parentId, after, 0, hint, limit);
    }

    /** getChildren: a page of a parent's children from index {@code start}. */
    public CompletionStage<ChildPage> getChildren(String parentId, long start, int limit) {
        return getChildren(parentId, null, start, -1, limit);
    }

    private CompletionStage<ChildPage> getChildren(String parentId, String after, long start, long hint, int limit) {
        List<Object> args = scriptArgs.named("getChildren").set("after", after == null ? "" : after)
                .set("start", Long.toString(start)).set("limit", Integer.toString(limit))
                .set("hint", hint < 0 ? "" : Long.toString(hint)).into(new ArrayList<>(4));
        return runner.<List<Object>>run("getChildren", ReturnType.LIST, scriptKeys.of("getChildren", "job", k.job(parentId)),
                        args.toArray())
                .thenApply(reply -> {
                    List<ChildEntry> entries = new ArrayList<>();
                    for (int i = 3; i + 1 < reply.size(); i += 2) {
                        String entry = str(reply.get(i + 1));
                        boolean pending = entry == null || entry.length() <= 1;
                        entries.add(new ChildEntry(str(reply.get(i)), pending ? null : entry,
                                pending && entry != null && !entry.isEmpty() ? entry : null));
                    }
                    return new ChildPage(num(reply.get(0)), num(reply.get(1)), num(reply.get(1)) >= num(reply.get(2)),
                            entries);
                });
    }

    /** @return how many children the parent has (pending and ended) */
    public CompletionStage<Integer> childrenCount(String parentId) {
        return getChildren(parentId, null, 0, 1).thenApply(page -> (int) page.total());
    }

    /** @return the first {@code limit} entries of this queue's outbox (child ends bound for other slots) */
    public CompletionStage<List<String>> outbox(int limit) {
        return redisson.<String>getList(RedisCalls.plain(k.flowOutbox())).rangeAsync(0, limit - 1);
    }

    /** Removes one relayed entry from the outbox. */
    public CompletionStage<Boolean> removeFromOutbox(String entry) {
        return redisson.<String>getList(RedisCalls.plain(k.flowOutbox())).removeAsync(entry, 1);
    }
}
