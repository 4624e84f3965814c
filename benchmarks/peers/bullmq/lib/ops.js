'use strict';
// The BullMQ side of every workload, one function per operation the Java harness asks for.
// Same shapes as the Java peers (io.bullpen.bench.peer.PeerDriver): no-op jobs whose data is
// {n: i}, default job options, bulk adds in chunks, times measured in this process.
const { FlowProducer, Queue, Worker } = require('bullmq');

const CHUNK = 1000;

function createOps(port, warmUpJobs) {
  const connection = { host: '127.0.0.1', port, maxRetriesPerRequest: null };
  const queues = new Map();
  let consumer = null;
  let e2eWorker = null;
  let producing = null;

  const queue = (name) => {
    if (!queues.has(name)) queues.set(name, new Queue(name, { connection }));
    return queues.get(name);
  };
  const seconds = (start) => Number(process.hrtime.bigint() - start) / 1e9;
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  // Microseconds on the host's monotonic clock (process.hrtime is CLOCK_MONOTONIC on Linux): the
  // same clock in every process, so a producer's and a worker's times compare.
  const micros = () => Number(process.hrtime.bigint() / 1000n);

  async function addInChunks(q, n, chunk, optsFor) {
    for (let i = 0; i < n; i += chunk) {
      const jobs = [];
      for (let j = i; j < Math.min(n, i + chunk); j++) jobs.push({ name: 'noop', data: { n: j }, opts: optsFor(j) });
      await q.addBulk(jobs);
    }
  }

  const ops = {
    async prefill({ queue: name, n }) {
      await addInChunks(queue(name), n, CHUNK, () => undefined);
      return {};
    },

    // Starts a worker on pre-added jobs; seconds from the first job's start to the last completion.
    async process({ queue: name, n, concurrency }) {
      let first = null;
      let last = null;
      let done = 0;
      let worker;
      await new Promise((resolve, reject) => {
        worker = new Worker(name, async () => {
          if (first === null) first = process.hrtime.bigint();
          return null;
        }, { connection, concurrency });
        worker.on('completed', () => {
          if (++done === n) {
            last = process.hrtime.bigint();
            resolve();
          }
        });
        worker.on('error', reject);
      });
      await worker.close();
      return { seconds: Number(last - first) / 1e9 };
    },

    // Several workers share BullMQ's limiter ({max, duration}: a window counted from the first
    // job in it). Records each job's processedOn (ms, from the worker's clock when it moved the
    // job to active) and the processor's own clock (us) when it was called.
    async processRateLimited({ queue: name, n, workers, concurrency, max, perMs }) {
      const processedOn = [];
      const processorMicros = [];
      const running = [];
      let done = 0;
      await new Promise((resolve, reject) => {
        for (let w = 0; w < workers; w++) {
          const worker = new Worker(name, async (job) => {
            processorMicros.push(Number(process.hrtime.bigint() / 1000n));
            processedOn.push(job.processedOn || -1);
            return null;
          }, { connection, concurrency, limiter: { max, duration: perMs } });
          worker.on('completed', () => {
            if (++done === n) resolve();
          });
          worker.on('error', reject);
          running.push(worker);
        }
      });
      await Promise.all(running.map((w) => w.close()));
      return { processedOn, processorMicros };
    },

    // Spread (issue 18): several workers at their defaults, started together, each job sleeping
    // jobMs; how many jobs each worker completed and the time from the first start to the last
    // completion.
    async processSpread({ queue: name, n, workers, concurrency, jobMs }) {
      const perWorker = new Array(workers).fill(0);
      const running = [];
      let first = null;
      let last = null;
      let done = 0;
      await new Promise((resolve, reject) => {
        for (let w = 0; w < workers; w++) {
          const worker = new Worker(name, async () => {
            if (first === null) first = process.hrtime.bigint();
            await sleep(jobMs);
            return null;
          }, { connection, concurrency });
          worker.on('completed', () => {
            perWorker[w]++;
            if (++done === n) {
              last = process.hrtime.bigint();
              resolve();
            }
          });
          worker.on('error', reject);
          running.push(worker);
        }
      });
      await Promise.all(running.map((w) => w.close()));
      return { perWorker, seconds: Number(last - first) / 1e9 };
    },

    async addOneAtATime({ queue: name, n }) {
      const q = queue(name);
      const start = process.hrtime.bigint();
      for (let i = 0; i < n; i++) await q.add('noop', { n: i });
      return { seconds: seconds(start) };
    },

    // n jobs added one at a time by `producers` concurrent async loops on one Queue (ioredis
    // pipelines whatever is in flight on its connection).
    async addConcurrently({ queue: name, n, producers }) {
      const q = queue(name);
      const loops = [];
      const start = process.hrtime.bigint();
      for (let p = 0; p < producers; p++) {
        const from = Math.floor((n * p) / producers);
        const to = Math.floor((n * (p + 1)) / producers);
        loops.push((async () => {
          for (let i = from; i < to; i++) await q.add('noop', { n: i });
        })());
      }
      await Promise.all(loops);
      return { seconds: seconds(start) };
    },

    // The cheapest round trip of the producer path: GET of a key never written, on the
    // connection the queue's adds use, one at a time.
    async roundTrips({ queue: name, n }) {
      const client = await queue(name).getBackend().client;
      const key = `bull:${name}:round-trip`;
      const start = process.hrtime.bigint();
      for (let i = 0; i < n; i++) {
        if ((await client.get(key)) !== null) throw new Error('the round-trip key exists');
      }
      return { seconds: seconds(start) };
    },

    async addBulk({ queue: name, n, chunk }) {
      const q = queue(name);
      const start = process.hrtime.bigint();
      await addInChunks(q, n, chunk, () => undefined);
      return { seconds: seconds(start) };
    },

    // Fills the queue's event stream to its cap (10,000), then removes the jobs, so that memory
    // measured afterwards is the jobs' own and not the stream's growth.
    async saturateEvents({ queue: name }) {
      const q = queue(name);
      await addInChunks(q, 12000, CHUNK, () => undefined);
      await q.drain(true);
      return {};
    },

    // A worker that records each job's lateness: its start minus its due time. The due time is
    // timestamp + opts.delay: BullMQ zeroes the job's own delay field when it promotes the job.
    async startConsumers({ queue: name, concurrency }) {
      const lateness = [];
      const worker = new Worker(name, async (job) => {
        lateness.push(Date.now() - (job.timestamp + ((job.opts && job.opts.delay) || 0)));
        return null;
      }, { connection, concurrency });
      worker.on('error', (e) => console.error('worker error', e));
      await worker.waitUntilReady();
      consumer = { worker, lateness };
      return {};
    },

    async awaitConsumed({ total, timeoutMs }) {
      const deadline = Date.now() + timeoutMs;
      while (consumer.lateness.length < total) {
        if (Date.now() > deadline) throw new Error(`consumed ${consumer.lateness.length} of ${total} in ${timeoutMs} ms`);
        await sleep(2);
      }
      return { lateness: consumer.lateness.slice(0, total) };
    },

    async stopConsumers() {
      if (consumer) await consumer.worker.close();
      consumer = null;
      return {};
    },

    // Delayed jobs due in an hour: they only sit in the delayed set.
    async addFar({ queue: name, n, chunk }) {
      const q = queue(name);
      const start = process.hrtime.bigint();
      await addInChunks(q, n, chunk, () => ({ delay: 3600000 }));
      return { seconds: seconds(start) };
    },

    // n jobs due uniformly over spreadMs, the first leadMs from now.
    async addNear({ queue: name, n, leadMs, spreadMs }) {
      await addDueUniformly(queue(name), n, leadMs, spreadMs);
      return {};
    },

    // Flows of one parent and `children` children, added one at a time by a FlowProducer while a
    // worker runs each queue (two on the one queue when both are the same). Every key under the
    // prefix {pc}: both queues in one Redis Cluster slot, as BullMQ's flows require. A child
    // returns its index; a parent reads its children's values and counts as incomplete unless it
    // got all of them. Seconds from the first add to the last parent's completion.
    async parentChild({ parentQueue, childQueue, n, children, concurrency }) {
      const prefix = '{pc}';
      const flows = new FlowProducer({ connection, prefix });
      let parents = 0;
      let incomplete = 0;
      let last = null;
      const workers = [];
      const finished = new Promise((resolve, reject) => {
        for (const name of [parentQueue, childQueue]) {
          const worker = new Worker(name, async (job) => {
            if (job.name !== 'parent') return job.data.n;
            const values = await job.getChildrenValues();
            if (Object.keys(values).length !== children) incomplete++;
            return null;
          }, { connection, concurrency, prefix });
          worker.on('completed', (job) => {
            if (job.name === 'parent' && ++parents === n) {
              last = process.hrtime.bigint();
              resolve();
            }
          });
          worker.on('failed', (job, err) => reject(new Error(`${job && job.name} ${job && job.id} failed: ${err}`)));
          worker.on('error', reject);
          workers.push(worker);
        }
      });
      finished.catch(() => {}); // awaited below; a failure while adding must not crash the process
      try {
        await Promise.all(workers.map((w) => w.waitUntilReady()));
        const start = process.hrtime.bigint();
        for (let i = 0; i < n; i++) {
          const kids = [];
          for (let c = 0; c < children; c++) kids.push({ name: 'child', queueName: childQueue, data: { n: c } });
          await flows.add({ name: 'parent', queueName: parentQueue, data: { n: i }, children: kids });
        }
        await finished;
        if (incomplete > 0) throw new Error(`${incomplete} parents saw fewer than ${children} child values`);
        return { seconds: Number(last - start) / 1e9, parents };
      } finally {
        await Promise.all(workers.map((w) => w.close()));
        await flows.close();
      }
    },

    // End to end (mixed, latency): a worker at its defaults counting completions; with `timing`,
    // noting each job's start (in the processor) and completion (its 'completed' event) by job index.
    async startWorker({ queue: name, concurrency, timing }) {
      const state = { completed: 0, failed: null, started: [], finished: [] };
      const worker = new Worker(name, async (job) => {
        if (timing) state.started[job.data.n] = micros();
        return null;
      }, { connection, concurrency });
      worker.on('completed', (job) => {
        if (timing) state.finished[job.data.n] = micros();
        state.completed++;
      });
      worker.on('failed', (job, err) => { state.failed = state.failed || `job ${job && job.id} failed: ${err}`; });
      worker.on('error', (e) => { state.failed = state.failed || String(e); });
      await worker.waitUntilReady();
      e2eWorker = { worker, state };
      return {};
    },

    async progress() {
      const failed = (e2eWorker && e2eWorker.state.failed) || (producing && producing.failed);
      if (failed) throw new Error(failed);
      return { added: producing ? producing.added : 0, completed: e2eWorker ? e2eWorker.state.completed : 0 };
    },

    async stopWorker() {
      const { worker, state } = e2eWorker;
      e2eWorker = null;
      await worker.close();
      return { completed: state.completed };
    },

    // `producers` concurrent async loops, each awaiting queue.add one job at a time until stopped.
    async startProducers({ queue: name, producers }) {
      const q = queue(name);
      const state = { added: 0, stop: false, failed: null, loops: [] };
      for (let p = 0; p < producers; p++) {
        state.loops.push((async () => {
          for (let i = 0; !state.stop; i++) {
            await q.add('noop', { n: i });
            state.added++;
          }
        })().catch((e) => { state.failed = state.failed || String(e); }));
      }
      producing = state;
      return {};
    },

    async stopProducers() {
      const state = producing;
      state.stop = true;
      await Promise.all(state.loops);
      producing = null;
      return { added: state.added };
    },

    // n jobs added open loop at `rate` per second: job i is due start + i/rate; whatever is due is
    // sent without waiting for earlier adds (a late producer catches up, it never slows the
    // schedule), each add timed just before its call. Between sends the loop sleeps on a timer
    // (1 ms at the least in Node), so at high rates jobs leave in small bursts.
    async produceAtRate({ queue: name, rate, n }) {
      const q = queue(name);
      const sent = new Array(n);
      const lag = new Array(n);
      const adds = [];
      const periodUs = 1e6 / rate;
      const start = micros();
      let i = 0;
      while (i < n) {
        while (i < n && start + i * periodUs <= micros()) {
          const t = micros();
          sent[i] = t;
          lag[i] = Math.round(t - (start + i * periodUs));
          adds.push(q.add('noop', { n: i }));
          i++;
        }
        if (i < n) await sleep(Math.max(0, (start + i * periodUs - micros()) / 1000));
      }
      await Promise.all(adds);
      return { sent, lag };
    },

    // Waits until the worker completed n jobs; their start and completion times by index.
    async latencyTimes({ n, timeoutMs }) {
      const deadline = Date.now() + timeoutMs;
      const { state } = e2eWorker;
      while (state.completed < n) {
        if (state.failed) throw new Error(state.failed);
        if (Date.now() > deadline) throw new Error(`completed ${state.completed} of ${n} in ${timeoutMs} ms`);
        await sleep(5);
      }
      return { started: state.started, finished: state.finished };
    },

    async close() {
      if (consumer) await consumer.worker.close();
      if (producing) await ops.stopProducers();
      if (e2eWorker) await ops.stopWorker();
      await Promise.all([...queues.values()].map((q) => q.close()));
      return {};
    },
  };

  // Warms V8 up on the paths measured later, as the Java peers warm the JIT.
  ops.warmUp = async () => {
    await ops.prefill({ queue: 'warm', n: warmUpJobs });
    await ops.process({ queue: 'warm', n: warmUpJobs, concurrency: 10 });
    await ops.addOneAtATime({ queue: 'warm', n: Math.floor(warmUpJobs / 4) });
    await queue('warm').obliterate({ force: true });
  };
  return ops;
}

async function addDueUniformly(q, n, leadMs, spreadMs) {
  const base = Date.now() + leadMs;
  const chunk = 500;
  for (let i = 0; i < n; i += chunk) {
    const now = Date.now();
    const jobs = [];
    for (let j = i; j < Math.min(n, i + chunk); j++) {
      const due = base + Math.floor((j * spreadMs) / n);
      jobs.push({ name: 'noop', data: { n: j }, opts: { delay: Math.max(0, due - now) } });
    }
    await q.addBulk(jobs);
  }
}

module.exports = { createOps, addDueUniformly };
