/* Shows the page for the current hash; tabs and paging within a queue page re-use it. */
import { el } from './dom.js';
import { renderJob } from './page-job.js';
import { renderOverview } from './page-overview.js';
import { renderQueue } from './page-queue.js';
import { links, parseRoute } from './routes.js';
import { state } from './state.js';
import { messageBox, mount } from './ui.js';

/** Renders the current route (on start and on every hashchange). */
export function render() {
  const route = parseRoute();
  const v = state.view;
  if (v && v.route && v.navigate && v.alive && route.name === 'queue' && v.route.name === 'queue' && v.route.queue === route.queue) {
    v.route = route;
    v.navigate(route);
    return;
  }
  if (v && v.dispose) {
    v.dispose();
  }
  const seq = ++state.seq;
  let view;
  if (route.name === 'overview') {
    view = renderOverview(seq);
  } else if (route.name === 'queue') {
    view = renderQueue(route, seq);
  } else if (route.name === 'job') {
    view = renderJob(route, seq);
  } else {
    document.title = 'Not found \u00b7 Bullpen';
    mount(el('section', { class: 'view' }, messageBox('warn', ['There is no page here. ',
      el('a', { href: links.overview() }, 'Go to the queues')])));
    view = {};
  }
  view.route = route;
  state.view = view;
}
