'use strict';
// Producers: jobs added one at a time by several concurrent async loops.
require('./lib/serve').serve(['addConcurrently']);
