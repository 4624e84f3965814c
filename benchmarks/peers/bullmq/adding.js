'use strict';
// Workload 2, adding: Queue.add one at a time, and Queue.addBulk in chunks.
require('./lib/serve').serve(['addOneAtATime', 'addBulk']);
