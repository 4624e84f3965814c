'use strict';
// Producers: jobs added one at a time by several concurrent async loops; beside them the
// cheapest round trip (one loop) and bulk adds of 100, the bounds of the producer path.
require('./lib/serve').serve(['addConcurrently', 'roundTrips', 'addBulk']);
