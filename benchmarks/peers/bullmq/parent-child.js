'use strict';
// Parent-child flows: a FlowProducer adding one parent with its children at a time, a worker per queue.
require('./lib/serve').serve(['parentChild']);
