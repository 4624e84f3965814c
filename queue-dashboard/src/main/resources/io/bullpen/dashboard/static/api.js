/*
 * The server's API: its paths, GETs, and actions (POST with the token in the X-Bullpen-Token
 * header, asked for when missing and again after a 401). Reads send the token too once the tab
 * has one; a dashboard whose reads need it answers a read without it with 401, and the read then
 * asks for it and tries again.
 */
import { enc } from './routes.js';
import { getToken, setToken, askToken } from './token.js';
import { flash } from './ui.js';

export const api = {
  config: function () { return 'api/config'; },
  queues: function () { return 'api/queues'; },
  queue: function (q) { return 'api/queues/' + enc(q); },
  jobs: function (q, st, start, end) {
    return 'api/queues/' + enc(q) + '/jobs?state=' + enc(st) + '&start=' + start + '&end=' + end;
  },
  search: function (q, st, f, cursor, limit) {
    return 'api/queues/' + enc(q) + '/search?state=' + enc(st) + '&limit=' + limit +
      (f.name ? '&name=' + enc(f.name) : '') + (f.path ? '&path=' + enc(f.path) + '&value=' + enc(f.value) : '') +
      (cursor ? '&cursor=' + enc(cursor) : '');
  },
  job: function (q, id) { return 'api/queues/' + enc(q) + '/jobs/' + enc(id); },
  children: function (q, id, after, limit, ended) {
    return 'api/queues/' + enc(q) + '/jobs/' + enc(id) + '/children?limit=' + limit +
      (after != null ? '&after=' + enc(after) : '') + (ended != null ? '&ended=' + ended : '');
  },
  jobAction: function (q, id, action) { return 'api/queues/' + enc(q) + '/jobs/' + enc(id) + '/' + action; },
  queueAction: function (q, action) { return 'api/queues/' + enc(q) + '/' + action; },
  limits: function (q) { return 'api/queues/' + enc(q) + '/limits'; },
  allLimits: function () { return 'api/limits'; },
  groups: function (q, after, limit) {
    return 'api/queues/' + enc(q) + '/groups?limit=' + limit + (after != null ? '&after=' + enc(after) : '');
  },
  workers: function (q) { return 'api/queues/' + enc(q) + '/workers'; },
  events: function () { return 'api/events'; },
  groupAction: function (q, g, action) { return 'api/queues/' + enc(q) + '/groups/' + enc(g) + '/' + action; },
  clean: function (q, st, graceMs) {
    return 'api/queues/' + enc(q) + '/clean?state=' + enc(st) + '&graceMs=' + graceMs;
  }
};

/** A failed request: the HTTP status (0 when the server cannot be reached) and the server's message. */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

const STATUS_TEXT = { 400: 'Bad request', 401: 'Unauthorized', 404: 'Not found', 409: 'Conflict', 500: 'Server error' };

export function errorText(e) {
  if (e instanceof ApiError) {
    if (e.status > 0) {
      return (STATUS_TEXT[e.status] || 'HTTP ' + e.status) + ': ' + e.message;
    }
    return e.message;
  }
  return 'Unexpected error: ' + (e && e.message ? e.message : String(e));
}

function readBody(res) {
  return res.text().then(function (text) {
    let body = null;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch (e) {
        body = null;
      }
    }
    if (!res.ok) {
      const msg = body && typeof body.error === 'string' ? body.error : 'HTTP ' + res.status;
      throw new ApiError(res.status, msg);
    }
    return body;
  });
}

function networkError(e) {
  throw new ApiError(0, 'Cannot reach the dashboard server (' + (e && e.message ? e.message : e) + ')');
}

const CANCELLED = new ApiError(-1, 'cancelled');

/** The headers of a request: the token, when this tab has one, travels only here. */
export function authHeaders(accept) {
  const headers = { Accept: accept };
  const token = getToken();
  if (token) {
    headers['X-Bullpen-Token'] = token;
  }
  return headers;
}

/**
 * After a 401 on a read: forgets a refused token and asks for one (once for every read waiting);
 * resolves when a token was entered, rejects with the server's error when the prompt is cancelled.
 */
export function askTokenForReads(error) {
  const hadToken = !!getToken();
  setToken(null);
  const message = hadToken ? 'The server refused that token (401). Enter it again.'
    : 'This dashboard needs its token to show anything (' + error.message + '). It is kept in this tab only (sessionStorage).';
  return askToken(message).then(function (t) {
    if (!t) {
      throw error;
    }
    setToken(t);
  });
}

/**
 * Opens the live event stream (api/events, Server-Sent Events) with the token header: a streaming
 * fetch(), since EventSource cannot send a header. Resolves to the response; live.js reads its body.
 */
export function openEventStream() {
  return fetch(api.events(), { headers: authHeaders('text/event-stream'), cache: 'no-store', credentials: 'same-origin' });
}

export function getJson(path) {
  function attempt(retried) {
    return fetch(path, { headers: authHeaders('application/json'), cache: 'no-store', credentials: 'same-origin' })
      .then(readBody, networkError)
      .catch(function (e) {
        if (e instanceof ApiError && e.status === 401 && retried < 3) {
          return askTokenForReads(e).then(function () {
            return attempt(retried + 1);
          });
        }
        throw e;
      });
  }
  return attempt(0);
}

/** POSTs an action with the token header; asks for the token first, and again after a 401. */
function postAction(path) {
  function attempt(message) {
    const token = getToken();
    const ready = token ? Promise.resolve(token) : askToken(message).then(function (t) {
      if (!t) {
        throw CANCELLED;
      }
      setToken(t);
      return t;
    });
    return ready.then(function (t) {
      return fetch(path, {
        method: 'POST',
        headers: { 'X-Bullpen-Token': t, Accept: 'application/json' },
        cache: 'no-store',
        credentials: 'omit'
      }).then(function (res) {
        if (res.status === 401) {
          setToken(null);
          return res.text().then(function () {
            return attempt('The server refused that token (401). Enter it again.');
          });
        }
        return readBody(res);
      }, networkError);
    });
  }
  return attempt(null);
}

/**
 * Runs an action: optional confirmation, the POST, a success message, then `after`.
 * opts: { path, button, confirm, success(body) -> text, after(body) }
 */
export function runAction(opts) {
  if (opts.confirm && !window.confirm(opts.confirm)) {
    return Promise.resolve(null);
  }
  if (opts.button) {
    opts.button.disabled = true;
  }
  return postAction(opts.path).then(function (body) {
    if (opts.success) {
      flash('ok', opts.success(body || {}));
    }
    if (opts.after) {
      return opts.after(body || {});
    }
    return body;
  }).catch(function (e) {
    if (e !== CANCELLED) {
      flash('error', errorText(e));
    }
    return null;
  }).then(function (r) {
    if (opts.button) {
      opts.button.disabled = false;
    }
    return r;
  });
}
