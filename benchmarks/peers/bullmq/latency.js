'use strict';
// Latency: one process runs an idle worker noting start and completion times; another (the same
// script) adds jobs at a fixed rate, open loop, noting each add's time.
require('./lib/serve').serve(['startWorker', 'stopWorker', 'produceAtRate', 'latencyTimes']);
