/* Hash routes: the links the pages write and how the current hash is read back. */
import { STATES } from './state.js';

/** A URL part, encoded. */
export function enc(s) {
  return encodeURIComponent(String(s));
}

function dec(s) {
  try {
    return decodeURIComponent(s);
  } catch (e) {
    return s;
  }
}

export const links = {
  overview: function () { return '#/'; },
  queue: function (q, st, page) {
    let h = '#/queues/' + enc(q);
    if (st) {
      h += '?state=' + enc(st) + (page > 1 ? '&page=' + page : '');
    }
    return h;
  },
  job: function (q, id) { return '#/queues/' + enc(q) + '/jobs/' + enc(id); }
};

/** The current route: { name: overview | queue | job | notfound, queue, state, page, id, path }. */
export function parseRoute() {
  const h = location.hash || '#/';
  let path = h.charAt(0) === '#' ? h.slice(1) : h;
  let query = '';
  const qi = path.indexOf('?');
  if (qi >= 0) {
    query = path.slice(qi + 1);
    path = path.slice(0, qi);
  }
  const parts = path.split('/').filter(function (p) { return p.length > 0; }).map(dec);
  const params = new URLSearchParams(query);
  if (parts.length === 0) {
    return { name: 'overview' };
  }
  if (parts[0] === 'queues' && parts.length === 2) {
    const page = parseInt(params.get('page') || '1', 10);
    return {
      name: 'queue', queue: parts[1],
      state: STATES.indexOf(params.get('state')) >= 0 ? params.get('state') : null,
      page: isFinite(page) && page > 0 ? page : 1
    };
  }
  if (parts[0] === 'queues' && parts.length === 4 && parts[2] === 'jobs') {
    return { name: 'job', queue: parts[1], id: parts[3] };
  }
  return { name: 'notfound', path: path };
}
