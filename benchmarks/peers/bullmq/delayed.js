'use strict';
// Workload 3, delayed, the consuming side: a worker recording each job's lateness. The jobs
// come from another process (delayed-producer.js).
require('./lib/serve').serve(['startConsumers', 'awaitConsumed', 'stopConsumers']);
