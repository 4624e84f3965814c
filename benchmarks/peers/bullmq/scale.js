'use strict';
// Workload 5, scale: up to 1,000,000 delayed jobs due in an hour, and batches of jobs due
// soon, promoted and run while the big set waits.
require('./lib/serve').serve(['startConsumers', 'addFar', 'addNear', 'awaitConsumed', 'stopConsumers']);
