'use strict';
// The harness protocol: the script is started with its parameters as one JSON argument
// ({"port": N, "warmUp": jobs}), warms up, prints {"ready":true,"pid":N}, then answers one JSON line per
// request line {"op": "...", "args": {...}} with {"ok": {...}} or {"error": "..."}.
// Logs go to stderr; stdout carries only protocol lines.
const readline = require('readline');
const { createOps } = require('./ops');

function serve(opNames) {
  const params = JSON.parse(process.argv[2] || '{}');
  const ops = createOps(params.port, params.warmUp || 2000);
  const allowed = new Set([...opNames, 'close']);
  const reply = (obj) => process.stdout.write(JSON.stringify(obj) + '\n');

  (async () => {
    await ops.warmUp();
    reply({ ready: true, pid: process.pid });
    const lines = readline.createInterface({ input: process.stdin });
    for await (const line of lines) {
      if (!line.trim()) continue;
      const { op, args } = JSON.parse(line);
      try {
        if (!allowed.has(op)) throw new Error(`unknown op ${op}`);
        reply({ ok: await ops[op](args || {}) });
      } catch (e) {
        reply({ error: String((e && e.stack) || e) });
      }
      if (op === 'close') break;
    }
    process.exit(0);
  })().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}

module.exports = { serve };
