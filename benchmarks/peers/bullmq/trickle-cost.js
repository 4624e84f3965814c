// BullMQ's side of benchmarks/trickle-cost.sh: node trickle-cost.js PORT JOBS PID.
// Each job is added to an idle worker (concurrency 10) and the next 5 ms after its 'completed'
// event; after 100 such jobs callgrind's counters are zeroed, JOBS jobs run, and they are dumped.
const { Queue, Worker } = require('bullmq');
const { execFileSync } = require('child_process');

const [port, jobs, pid] = [Number(process.argv[2]), Number(process.argv[3]), process.argv[4]];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

(async () => {
  const connection = { host: '127.0.0.1', port };
  const queue = new Queue('trickle', { connection });
  let completed = null;
  const worker = new Worker('trickle', async () => null, { connection, concurrency: 10 });
  worker.on('completed', () => {
    const done = completed;
    completed = null;
    if (done) done();
  });
  await worker.waitUntilReady();
  const run = async (n) => {
    for (let i = 0; i < n; i++) {
      const done = new Promise((r) => { completed = r; });
      await queue.add('noop', { n: i });
      await done;
      await sleep(5);
    }
  };
  await run(100);
  execFileSync('callgrind_control', ['-z', pid]);
  await run(jobs);
  execFileSync('callgrind_control', ['-d', pid]);
  await worker.close();
  await queue.close();
  process.exit(0);
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
