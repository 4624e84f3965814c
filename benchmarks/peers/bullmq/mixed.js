'use strict';
// Mixed: one process runs a worker while another (the same script) runs producers adding one job at a time.
require('./lib/serve').serve(['startWorker', 'stopWorker', 'startProducers', 'stopProducers', 'progress']);
