'use strict';
// Spread (issue 18): 1 ms and 10 ms jobs, 2 workers at concurrency 10: the share each worker ran.
require('./lib/serve').serve(['prefill', 'processSpread']);
