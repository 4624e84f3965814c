'use strict';
// Workload 3, delayed, the producing side: adds n jobs due uniformly over spreadMs, the first
// leadMs after it connected, prints {"added": n} and exits.
// Argument: {"port": N, "queue": "...", "n": 5000, "leadMs": 1000, "spreadMs": 5000}
const { Queue } = require('bullmq');
const { addDueUniformly } = require('./lib/ops');

(async () => {
  const { port, queue, n, leadMs, spreadMs } = JSON.parse(process.argv[2]);
  const q = new Queue(queue, { connection: { host: '127.0.0.1', port } });
  await q.waitUntilReady();
  await addDueUniformly(q, n, leadMs, spreadMs);
  await q.close();
  process.stdout.write(JSON.stringify({ added: n }) + '\n');
  process.exit(0);
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
