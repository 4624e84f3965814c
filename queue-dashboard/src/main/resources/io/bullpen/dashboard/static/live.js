/* Live counts: the server's `counts` events (SSE) update the shared state and the current view. */
import { parseJsonOr } from './format.js';
import { state } from './state.js';
import { setLive } from './ui.js';

let events = null;

/** Connects to api/events; reconnects 5 s after the browser gives up. */
export function connectEvents() {
  if (typeof window.EventSource !== 'function') {
    setLive('off', 'no live updates');
    return;
  }
  events = new EventSource('api/events');
  events.addEventListener('open', function () {
    setLive('on', 'live');
  });
  events.addEventListener('error', function () {
    if (events.readyState === EventSource.CLOSED) {
      setLive('off', 'disconnected');
      events = null;
      setTimeout(connectEvents, 5000);
    } else {
      setLive('connecting', 'reconnecting\u2026');
    }
  });
  events.addEventListener('counts', function (ev) {
    const data = parseJsonOr(ev.data, null);
    if (!data || !Array.isArray(data.queues)) {
      return;
    }
    state.queues = data.queues;
    state.countsVersion++;
    setLive('on', 'live');
    if (state.view && state.view.onCounts) {
      state.view.onCounts(data.queues);
    }
  });
}
