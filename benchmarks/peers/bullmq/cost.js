'use strict';
// Workload 4, cost: one job's whole life (added one at a time, processed at concurrency 10),
// while the harness reads Redis commandstats, CPU from /proc and INFO memory around it.
require('./lib/serve').serve(['saturateEvents', 'addOneAtATime', 'process']);
