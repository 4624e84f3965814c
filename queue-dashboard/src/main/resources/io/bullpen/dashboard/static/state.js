/* What the pages share: the server's configuration, the latest live counts, the current view. */

/** The states, in the order of QueueSummary.counts. */
export const STATES = ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children', 'completed', 'failed'];
export const PAGE_SIZE = 20;

export const state = {
  config: { readOnly: true, actions: false, version: '' },
  queues: null,        // the latest QueueSummary list
  countsVersion: 0,    // bumped on every `counts` event
  view: null,          // the current view: { route, onCounts(queues), navigate(route), dispose() }
  seq: 0               // bumped on every full render; stale async work checks it
};

export function findQueue(queues, name) {
  if (!queues) {
    return null;
  }
  for (let i = 0; i < queues.length; i++) {
    if (queues[i] && queues[i].name === name) {
      return queues[i];
    }
  }
  return null;
}

/** A queue's counts and paused flag as one string: equal keys, nothing to redraw. */
export function countsKey(summary) {
  if (!summary) {
    return '';
  }
  const c = summary.counts || {};
  return STATES.map(function (s) { return c[s]; }).join(',') + (summary.paused ? ',p' : '');
}
