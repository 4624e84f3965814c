'use strict';
// Workload 1, processing: pre-added no-op jobs, then a worker at concurrency 1, 10 or 100.
require('./lib/serve').serve(['prefill', 'process']);
