'use strict';
// Flow control, limiter accuracy: pre-added no-op jobs run by several workers under BullMQ's own
// limiter ({max, duration}); each job's processedOn and the processor's clock are recorded.
require('./lib/serve').serve(['prefill', 'processRateLimited']);
