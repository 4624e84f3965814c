/*
 * Bullpen dashboard: a small single-page app on hash routes, plain DOM APIs, no dependencies.
 *
 * Security rules kept throughout this file (see API.md): every value that comes from the server
 * (queue names, job ids, names, data, reasons, logs, stack traces) reaches the page through
 * textContent / createTextNode only; the DOM is built with createElement / createElementNS; URL
 * parts go through encodeURIComponent; the token travels only in the X-Bullpen-Token header.
 */
(function () {
  'use strict';

  /** The states, in the order of QueueSummary.counts. */
  var STATES = ['waiting', 'active', 'delayed', 'prioritized', 'completed', 'failed'];
  var PAGE_SIZE = 20;
  var TOKEN_KEY = 'bullpen.dashboard.token';
  var SVG_NS = 'http://www.w3.org/2000/svg';

  var appRoot = document.getElementById('app');
  var flashArea = document.getElementById('flash');

  var state = {
    config: { readOnly: true, actions: false, version: '' },
    queues: null,        // the latest QueueSummary list
    countsVersion: 0,    // bumped on every `counts` event
    view: null,          // the current view: { route, onCounts(queues), navigate(route) }
    seq: 0               // bumped on every full render; stale async work checks it
  };

  // ---------------------------------------------------------------- DOM helpers

  /**
   * Creates an element. props: class, text, data (dataset), on<event> (listeners), other keys are
   * attributes (true = present, null/false/undefined = absent). Children: nodes or text.
   */
  function el(tag, props) {
    var node = document.createElement(tag);
    setProps(node, props);
    appendChildren(node, Array.prototype.slice.call(arguments, 2));
    return node;
  }

  /** Creates an SVG element with the given attributes. */
  function svgEl(tag, attrs) {
    var node = document.createElementNS(SVG_NS, tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        if (attrs[k] != null) {
          node.setAttribute(k, String(attrs[k]));
        }
      });
    }
    appendChildren(node, Array.prototype.slice.call(arguments, 2));
    return node;
  }

  function setProps(node, props) {
    if (!props) {
      return;
    }
    Object.keys(props).forEach(function (k) {
      var v = props[k];
      if (v == null || v === false) {
        return;
      }
      if (k === 'class') {
        node.className = v;
      } else if (k === 'text') {
        node.textContent = String(v);
      } else if (k === 'data') {
        Object.keys(v).forEach(function (dk) {
          node.dataset[dk] = String(v[dk]);
        });
      } else if (k.indexOf('on') === 0 && typeof v === 'function') {
        node.addEventListener(k.slice(2), v);
      } else if (k === 'style' || k === 'srcdoc' || k.indexOf('on') === 0) {
        throw new Error('refusing to set attribute ' + k);
      } else {
        node.setAttribute(k, v === true ? '' : String(v));
      }
    });
  }

  function appendChildren(node, children) {
    children.forEach(function add(c) {
      if (c == null || c === false) {
        return;
      }
      if (Array.isArray(c)) {
        c.forEach(add);
      } else if (c instanceof Node) {
        node.appendChild(c);
      } else {
        node.appendChild(document.createTextNode(String(c)));
      }
    });
  }

  function clear(node) {
    while (node.firstChild) {
      node.removeChild(node.firstChild);
    }
    return node;
  }

  function replaceContent(node) {
    clear(node);
    appendChildren(node, Array.prototype.slice.call(arguments, 1));
    return node;
  }

  // ---------------------------------------------------------------- formatting

  var numberFormat = new Intl.NumberFormat();
  var fullTime = new Intl.DateTimeFormat(undefined, {
    year: 'numeric', month: 'short', day: 'numeric',
    hour: '2-digit', minute: '2-digit', second: '2-digit'
  });
  var shortTime = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  var dayTime = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
  var minuteTime = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
  var relative = typeof Intl.RelativeTimeFormat === 'function'
    ? new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' }) : null;

  function fmtCount(n) {
    return typeof n === 'number' ? numberFormat.format(n) : '–';
  }

  function isTime(ms) {
    return typeof ms === 'number' && isFinite(ms) && ms > 0;
  }

  function fmtRelative(ms) {
    var diff = ms - Date.now();
    var abs = Math.abs(diff);
    var units = [['day', 86400000], ['hour', 3600000], ['minute', 60000], ['second', 1000]];
    for (var i = 0; i < units.length; i++) {
      if (abs >= units[i][1] || i === units.length - 1) {
        var value = Math.round(diff / units[i][1]);
        if (relative) {
          return relative.format(value, units[i][0]);
        }
        return value < 0 ? (-value) + ' ' + units[i][0] + 's ago' : 'in ' + value + ' ' + units[i][0] + 's';
      }
    }
    return '';
  }

  function fmtDuration(ms) {
    if (typeof ms !== 'number' || !isFinite(ms)) {
      return '–';
    }
    if (ms < 1000) {
      return Math.round(ms) + ' ms';
    }
    var s = ms / 1000;
    if (s < 60) {
      return (s < 10 ? s.toFixed(1) : Math.round(s)) + ' s';
    }
    var parts = [];
    var d = Math.floor(s / 86400); s -= d * 86400;
    var h = Math.floor(s / 3600); s -= h * 3600;
    var m = Math.floor(s / 60); s = Math.round(s - m * 60);
    if (d) { parts.push(d + ' d'); }
    if (h) { parts.push(h + ' h'); }
    if (m && !d) { parts.push(m + ' min'); }
    if (s && !d && !h) { parts.push(s + ' s'); }
    return parts.join(' ');
  }

  /** A <time> with the local date and time, plus how long ago (or until). */
  function timeFull(ms) {
    if (!isTime(ms)) {
      return el('span', { class: 'muted' }, '–');
    }
    var d = new Date(ms);
    return el('time', { datetime: d.toISOString(), title: d.toISOString() },
      fullTime.format(d), ' ', el('span', { class: 'rel' }, '(' + fmtRelative(ms) + ')'));
  }

  /** A compact <time> for tables: the time today, else the day and time; the full time as a tooltip. */
  function timeShort(ms) {
    if (!isTime(ms)) {
      return el('span', { class: 'muted' }, '–');
    }
    var d = new Date(ms);
    var sameDay = d.toDateString() === new Date().toDateString();
    return el('time', { datetime: d.toISOString(), title: fullTime.format(d) + ' · ' + fmtRelative(ms) },
      sameDay ? shortTime.format(d) : dayTime.format(d));
  }

  /** Parses JSON text and pretty-prints it; text that is not JSON is returned as it is. */
  function prettyJson(value) {
    if (value == null) {
      return null;
    }
    if (typeof value !== 'string') {
      return JSON.stringify(value, null, 2);
    }
    try {
      return JSON.stringify(JSON.parse(value), null, 2);
    } catch (e) {
      return value;
    }
  }

  function parseJsonOr(value, fallback) {
    if (typeof value !== 'string') {
      return value == null ? fallback : value;
    }
    try {
      return JSON.parse(value);
    } catch (e) {
      return fallback;
    }
  }

  function describeRepeat(r) {
    if (!r || typeof r !== 'object') {
      return '–';
    }
    var parts = [];
    if (r.cron != null) {
      parts.push('cron ' + r.cron + (r.zone ? ' (' + r.zone + ')' : ''));
    } else if (r.every != null) {
      parts.push('every ' + fmtDuration(Number(r.every)));
    }
    if (r.limit != null) { parts.push('limit ' + r.limit); }
    if (isTime(r.startAt)) { parts.push('from ' + fullTime.format(new Date(r.startAt))); }
    if (isTime(r.endAt)) { parts.push('until ' + fullTime.format(new Date(r.endAt))); }
    if (r.immediately) { parts.push('immediately'); }
    if (r.misfire) { parts.push('misfire ' + r.misfire); }
    return parts.join(', ');
  }

  // ---------------------------------------------------------------- routes and URLs

  function enc(s) {
    return encodeURIComponent(String(s));
  }

  function dec(s) {
    try {
      return decodeURIComponent(s);
    } catch (e) {
      return s;
    }
  }

  var links = {
    overview: function () { return '#/'; },
    queue: function (q, st, page) {
      var h = '#/queues/' + enc(q);
      if (st) {
        h += '?state=' + enc(st) + (page > 1 ? '&page=' + page : '');
      }
      return h;
    },
    job: function (q, id) { return '#/queues/' + enc(q) + '/jobs/' + enc(id); }
  };

  var api = {
    config: function () { return 'api/config'; },
    queues: function () { return 'api/queues'; },
    queue: function (q) { return 'api/queues/' + enc(q); },
    jobs: function (q, st, start, end) {
      return 'api/queues/' + enc(q) + '/jobs?state=' + enc(st) + '&start=' + start + '&end=' + end;
    },
    job: function (q, id) { return 'api/queues/' + enc(q) + '/jobs/' + enc(id); },
    jobAction: function (q, id, action) { return 'api/queues/' + enc(q) + '/jobs/' + enc(id) + '/' + action; },
    queueAction: function (q, action) { return 'api/queues/' + enc(q) + '/' + action; },
    clean: function (q, st, graceMs) {
      return 'api/queues/' + enc(q) + '/clean?state=' + enc(st) + '&graceMs=' + graceMs;
    }
  };

  function parseRoute() {
    var h = location.hash || '#/';
    var path = h.charAt(0) === '#' ? h.slice(1) : h;
    var query = '';
    var qi = path.indexOf('?');
    if (qi >= 0) {
      query = path.slice(qi + 1);
      path = path.slice(0, qi);
    }
    var parts = path.split('/').filter(function (p) { return p.length > 0; }).map(dec);
    var params = new URLSearchParams(query);
    if (parts.length === 0) {
      return { name: 'overview' };
    }
    if (parts[0] === 'queues' && parts.length === 2) {
      var page = parseInt(params.get('page') || '1', 10);
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

  // ---------------------------------------------------------------- HTTP

  function ApiError(status, message) {
    this.status = status;
    this.message = message;
  }
  ApiError.prototype = Object.create(Error.prototype);
  ApiError.prototype.name = 'ApiError';

  var STATUS_TEXT = { 400: 'Bad request', 401: 'Unauthorized', 404: 'Not found', 409: 'Conflict', 500: 'Server error' };

  function errorText(e) {
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
      var body = null;
      if (text) {
        try {
          body = JSON.parse(text);
        } catch (e) {
          body = null;
        }
      }
      if (!res.ok) {
        var msg = body && typeof body.error === 'string' ? body.error : 'HTTP ' + res.status;
        throw new ApiError(res.status, msg);
      }
      return body;
    });
  }

  function networkError(e) {
    throw new ApiError(0, 'Cannot reach the dashboard server (' + (e && e.message ? e.message : e) + ')');
  }

  function getJson(path) {
    return fetch(path, { headers: { Accept: 'application/json' }, cache: 'no-store', credentials: 'same-origin' })
      .then(readBody, networkError);
  }

  // ---------------------------------------------------------------- token and actions

  function getToken() {
    try {
      return sessionStorage.getItem(TOKEN_KEY);
    } catch (e) {
      return null;
    }
  }

  function setToken(token) {
    try {
      if (token) {
        sessionStorage.setItem(TOKEN_KEY, token);
      } else {
        sessionStorage.removeItem(TOKEN_KEY);
      }
    } catch (e) {
      // storage disabled: the token is asked again next time
    }
    updateTokenButton();
  }

  function updateTokenButton() {
    document.getElementById('forget-token').hidden = !(state.config.actions && getToken());
  }

  var pendingTokenPrompt = null;

  /** Asks for the token in a modal form; resolves to the token, or null when cancelled. */
  function askToken(message) {
    if (pendingTokenPrompt) {
      return pendingTokenPrompt;
    }
    var dialog = document.getElementById('token-dialog');
    if (typeof dialog.showModal !== 'function') {
      var typed = window.prompt(message || 'Dashboard token');
      return Promise.resolve(typed ? typed.trim() || null : null);
    }
    var form = document.getElementById('token-form');
    var input = document.getElementById('token-input');
    var cancel = document.getElementById('token-cancel');
    var msg = document.getElementById('token-message');
    msg.textContent = message || 'Actions need the dashboard\u2019s token. It is kept in this tab only (sessionStorage).';
    msg.className = message ? 'error-text' : 'muted';
    input.value = '';
    pendingTokenPrompt = new Promise(function (resolve) {
      function finish(value) {
        form.removeEventListener('submit', onSubmit);
        cancel.removeEventListener('click', onCancel);
        dialog.removeEventListener('cancel', onCancel);
        if (dialog.open) {
          dialog.close();
        }
        pendingTokenPrompt = null;
        resolve(value);
      }
      function onSubmit(ev) {
        ev.preventDefault();
        var v = input.value.trim();
        if (!v) {
          input.focus();
          return;
        }
        finish(v);
      }
      function onCancel(ev) {
        ev.preventDefault();
        finish(null);
      }
      form.addEventListener('submit', onSubmit);
      cancel.addEventListener('click', onCancel);
      dialog.addEventListener('cancel', onCancel);
      dialog.showModal();
      input.focus();
    });
    return pendingTokenPrompt;
  }

  var CANCELLED = new ApiError(-1, 'cancelled');

  /** POSTs an action with the token header; asks for the token first, and again after a 401. */
  function postAction(path) {
    function attempt(message) {
      var token = getToken();
      var ready = token ? Promise.resolve(token) : askToken(message).then(function (t) {
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
  function runAction(opts) {
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

  // ---------------------------------------------------------------- messages

  function flash(kind, text) {
    var item = el('div', { class: 'flash flash-' + kind, role: kind === 'error' ? 'alert' : 'status' },
      el('span', { class: 'flash-text' }, text));
    item.appendChild(el('button', {
      type: 'button', class: 'flash-close', 'aria-label': 'Dismiss',
      onclick: function () { item.remove(); }
    }, '\u00d7'));
    flashArea.appendChild(item);
    while (flashArea.children.length > 4) {
      flashArea.removeChild(flashArea.firstChild);
    }
    if (kind !== 'error') {
      setTimeout(function () { item.remove(); }, 6000);
    }
  }

  function setLive(kind, text) {
    var node = document.getElementById('live-status');
    node.className = 'live live-' + kind;
    node.textContent = text;
  }

  // ---------------------------------------------------------------- live counts

  var events = null;

  function connectEvents() {
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
      var data = parseJsonOr(ev.data, null);
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

  function findQueue(queues, name) {
    if (!queues) {
      return null;
    }
    for (var i = 0; i < queues.length; i++) {
      if (queues[i] && queues[i].name === name) {
        return queues[i];
      }
    }
    return null;
  }

  function countsKey(summary) {
    if (!summary) {
      return '';
    }
    var c = summary.counts || {};
    return STATES.map(function (s) { return c[s]; }).join(',') + (summary.paused ? ',p' : '');
  }

  /** Marks a node as just changed (a short highlight), restarting the animation if needed. */
  function pulse(node) {
    node.classList.remove('changed');
    void node.offsetWidth;
    node.classList.add('changed');
  }

  // ---------------------------------------------------------------- shared pieces

  function stateBadge(st) {
    return el('span', { class: 'badge state-' + st }, st);
  }

  function pausedBadge(queue, paused) {
    var b = el('span', { class: 'badge badge-paused', data: { queue: queue, paused: 'true' } }, 'paused');
    b.hidden = !paused;
    return b;
  }

  function breadcrumb(items) {
    var nav = el('nav', { class: 'breadcrumb', 'aria-label': 'Breadcrumb' });
    items.forEach(function (item, i) {
      if (i > 0) {
        nav.appendChild(el('span', { class: 'sep', 'aria-hidden': 'true' }, '/'));
      }
      nav.appendChild(item.href ? el('a', { href: item.href }, item.text) : el('span', { 'aria-current': 'page' }, item.text));
    });
    return nav;
  }

  function card(title, extra) {
    var body = el('div', { class: 'card-body' });
    var head = el('div', { class: 'card-head' }, el('h2', null, title), extra || null);
    var node = el('section', { class: 'card' }, head, body);
    return { node: node, body: body, head: head };
  }

  function messageBox(kind, children) {
    return el('div', { class: 'message message-' + kind }, children);
  }

  function mount(node) {
    replaceContent(appRoot, node);
    window.scrollTo(0, 0);
  }

  // ---------------------------------------------------------------- overview (#/)

  function renderOverview(seq) {
    document.title = 'Queues \u00b7 Bullpen';
    var totals = el('div', { class: 'totals', id: 'totals' });
    var tableBox = el('div', { class: 'table-wrap' });
    var listCard = card('Queues', el('span', { class: 'muted small', id: 'queue-count' }));
    listCard.body.appendChild(tableBox);
    mount(el('section', { class: 'view view-overview' },
      el('div', { class: 'page-head' }, el('h1', null, 'Overview')),
      totals, listCard.node));

    var builtFor = null;        // the queue names the table was built for
    var cells = {};             // name \u0000 state -> { cell, link }
    var badges = {};            // name -> paused badge
    var totalCells = {};

    STATES.forEach(function (st) {
      var value = el('div', { class: 'total-value', data: { total: st } }, '–');
      totalCells[st] = value;
      totals.appendChild(el('div', { class: 'total total-' + st }, el('div', { class: 'total-label' }, st), value));
    });

    function build(queues) {
      cells = {};
      badges = {};
      if (queues.length === 0) {
        replaceContent(tableBox, messageBox('info', [
          el('strong', null, 'No queues yet. '),
          'A queue appears here once a job has been added to it.'
        ]));
        return;
      }
      var headRow = el('tr', null, el('th', { scope: 'col' }, 'Queue'));
      STATES.forEach(function (st) {
        headRow.appendChild(el('th', { scope: 'col', class: 'num' }, st));
      });
      var tbody = el('tbody');
      queues.forEach(function (qs) {
        var name = String(qs.name);
        var badge = pausedBadge(name, false);
        badges[name] = badge;
        var row = el('tr', { data: { queueRow: name } },
          el('th', { scope: 'row', class: 'queue-name' },
            el('a', { href: links.queue(name) }, name), ' ', badge));
        STATES.forEach(function (st) {
          var link = el('a', { href: links.queue(name, st) }, '–');
          var cell = el('td', { class: 'num count state-text-' + st, data: { queue: name, state: st } }, link);
          cells[name + '\u0000' + st] = { cell: cell, link: link };
          row.appendChild(cell);
        });
        tbody.appendChild(row);
      });
      replaceContent(tableBox, el('table', { class: 'table overview-table', id: 'overview-table' },
        el('thead', null, headRow), tbody));
    }

    function apply(queues, animate) {
      var names = queues.map(function (q) { return String(q.name); }).join('\u0000');
      if (names !== builtFor) {
        build(queues);
        builtFor = names;
        animate = false;
      }
      var sums = {};
      STATES.forEach(function (st) { sums[st] = 0; });
      queues.forEach(function (qs) {
        var name = String(qs.name);
        var counts = qs.counts || {};
        STATES.forEach(function (st) {
          var n = typeof counts[st] === 'number' ? counts[st] : 0;
          sums[st] += n;
          var c = cells[name + '\u0000' + st];
          if (!c) {
            return;
          }
          if (c.cell.dataset.count !== String(n)) {
            c.cell.dataset.count = String(n);
            c.link.textContent = fmtCount(n);
            c.cell.classList.toggle('zero', n === 0);
            if (animate) {
              pulse(c.cell);
            }
          }
        });
        if (badges[name]) {
          badges[name].hidden = !qs.paused;
        }
      });
      STATES.forEach(function (st) {
        totalCells[st].textContent = fmtCount(sums[st]);
        totalCells[st].dataset.count = String(sums[st]);
      });
      document.getElementById('queue-count').textContent =
        queues.length === 1 ? '1 queue' : fmtCount(queues.length) + ' queues';
    }

    if (state.queues) {
      apply(state.queues, false);
    }
    var version = state.countsVersion;
    getJson(api.queues()).then(function (body) {
      if (seq !== state.seq || version !== state.countsVersion || !body || !Array.isArray(body.queues)) {
        return;        // navigated away, or a live update already brought newer counts
      }
      state.queues = body.queues;
      apply(body.queues, false);
    }).catch(function (e) {
      if (seq === state.seq && !state.queues) {
        replaceContent(tableBox, messageBox('error', errorText(e)));
      }
    });

    return { onCounts: function (queues) { apply(queues, true); } };
  }

  // ---------------------------------------------------------------- queue page (#/queues/{q})

  function renderQueue(route, seq) {
    var q = route.queue;
    var current = { state: route.state || 'waiting', page: route.page || 1 };
    var summary = null;          // the latest QueueSummary of this queue
    var listToken = 0;           // the newest list request
    var lastDetailAt = 0;
    var detailTimer = null;
    var listTimer = null;
    document.title = q + ' \u00b7 Bullpen';

    var title = el('h1', null, q);
    var paused = pausedBadge(q, false);
    var actionsBox = el('div', { class: 'actions-bar', id: 'queue-actions' });
    var tabs = el('nav', { class: 'tabs', role: 'tablist', 'aria-label': 'Job states' });
    var tabCounts = {};
    var tabLinks = {};
    STATES.forEach(function (st) {
      var count = el('span', { class: 'tab-count', data: { queue: q, state: st } }, '–');
      tabCounts[st] = count;
      var a = el('a', { href: links.queue(q, st), role: 'tab', class: 'tab tab-' + st, data: { tab: st } },
        el('span', { class: 'tab-label' }, st), count);
      tabLinks[st] = a;
      tabs.appendChild(a);
    });

    // search by id
    var searchInput = el('input', {
      type: 'search', id: 'job-search', name: 'id', placeholder: 'job id', 'aria-label': 'Job id',
      autocomplete: 'off', spellcheck: 'false'
    });
    var searchMessage = el('div', { class: 'search-message', id: 'search-message', role: 'status' });
    var searchForm = el('form', { class: 'search', role: 'search', id: 'job-search-form' },
      searchInput, el('button', { type: 'submit', class: 'btn' }, 'Open'));
    searchForm.addEventListener('submit', function (ev) {
      ev.preventDefault();
      var id = searchInput.value.trim();
      clear(searchMessage);
      if (!id) {
        searchInput.focus();
        return;
      }
      getJson(api.job(q, id)).then(function () {
        location.hash = links.job(q, id);
      }).catch(function (e) {
        if (seq !== state.seq) {
          return;
        }
        if (e instanceof ApiError && e.status === 404) {
          replaceContent(searchMessage, messageBox('warn', 'no job with id ' + id));
        } else {
          replaceContent(searchMessage, messageBox('error', errorText(e)));
        }
      });
    });

    var listCard = card('Jobs', el('div', { class: 'card-tools' }, searchForm));
    var listBox = el('div', { id: 'job-list' }, el('p', { class: 'loading' }, 'Loading\u2026'));
    var pager = el('div', { class: 'pager', id: 'pager' });
    listCard.body.appendChild(searchMessage);
    listCard.body.appendChild(tabs);
    listCard.body.appendChild(listBox);
    listCard.body.appendChild(pager);

    var chartCard = card('Last hour', el('div', { class: 'legend', id: 'chart-legend' }));
    chartCard.node.id = 'metrics';
    var schedCard = card('Job schedulers');
    schedCard.node.id = 'schedulers';

    var head = el('div', { class: 'page-head' },
      el('div', { class: 'title-line' }, title, paused),
      actionsBox);

    var body = el('div', { class: 'queue-body' }, listCard.node,
      el('div', { class: 'side-grid' }, chartCard.node, schedCard.node));
    var root = el('section', { class: 'view view-queue' },
      breadcrumb([{ text: 'Queues', href: links.overview() }, { text: q }]), head, body);
    mount(root);

    // ---- actions bar
    var pauseButton = null;
    if (state.config.actions) {
      pauseButton = el('button', { type: 'button', class: 'btn', data: { action: 'pause' } }, 'Pause');
      pauseButton.addEventListener('click', function () {
        var resume = !!(summary && summary.paused);
        runAction({
          path: api.queueAction(q, resume ? 'resume' : 'pause'),
          button: pauseButton,
          success: function () { return (resume ? 'Resumed ' : 'Paused ') + q; },
          after: function () { return refreshDetail(true); }
        });
      });
      var retryAll = el('button', { type: 'button', class: 'btn', data: { action: 'retry-failed' } }, 'Retry all failed');
      retryAll.addEventListener('click', function () {
        var n = summary && summary.counts ? summary.counts.failed : null;
        runAction({
          path: api.queueAction(q, 'retry-failed'),
          button: retryAll,
          confirm: 'Retry ' + (typeof n === 'number' ? fmtCount(n) + ' ' : 'all ') + 'failed jobs of ' + q + '?',
          success: function (b) { return 'Retried ' + fmtCount(b.count || 0) + ' failed job(s)'; },
          after: function () { return refreshAll(); }
        });
      });
      var cleanState = el('select', { id: 'clean-state', 'aria-label': 'State to clean' },
        el('option', { value: 'completed' }, 'completed'), el('option', { value: 'failed' }, 'failed'));
      var cleanMinutes = el('input', {
        type: 'number', id: 'clean-minutes', min: '0', step: '1', value: '60', class: 'input-small',
        'aria-label': 'Minutes'
      });
      var cleanButton = el('button', { type: 'submit', class: 'btn btn-danger' }, 'Clean');
      var cleanForm = el('form', { class: 'clean-form', id: 'clean-form' },
        el('span', null, 'Clean'), cleanState, el('span', null, 'jobs finished over'), cleanMinutes,
        el('span', null, 'min ago'), cleanButton);
      cleanForm.addEventListener('submit', function (ev) {
        ev.preventDefault();
        var minutes = Number(cleanMinutes.value);
        if (!isFinite(minutes) || minutes < 0 || Math.floor(minutes) !== minutes) {
          flash('error', 'Minutes must be a whole number, 0 or more');
          return;
        }
        var st = cleanState.value;
        runAction({
          path: api.clean(q, st, minutes * 60000),
          button: cleanButton,
          confirm: 'Remove ' + st + ' jobs of ' + q + ' that finished over ' + minutes + ' minute(s) ago?',
          success: function (b) { return 'Removed ' + fmtCount(b.count || 0) + ' ' + st + ' job(s)'; },
          after: function () { return refreshAll(); }
        });
      });
      appendChildren(actionsBox, [pauseButton, retryAll, cleanForm]);
    }

    // ---- counts
    function applySummary(s, fromEvent) {
      var before = summary;
      summary = s;
      paused.hidden = !s.paused;
      if (pauseButton) {
        pauseButton.textContent = s.paused ? 'Resume' : 'Pause';
        pauseButton.dataset.action = s.paused ? 'resume' : 'pause';
        pauseButton.classList.toggle('btn-primary', !!s.paused);
      }
      var counts = s.counts || {};
      STATES.forEach(function (st) {
        var n = typeof counts[st] === 'number' ? counts[st] : 0;
        if (tabCounts[st].dataset.count !== String(n)) {
          tabCounts[st].dataset.count = String(n);
          tabCounts[st].textContent = fmtCount(n);
          if (fromEvent) {
            pulse(tabCounts[st]);
          }
        }
      });
      if (fromEvent && before) {
        var bc = before.counts || {};
        if (bc[current.state] !== counts[current.state]) {
          scheduleList();
        }
        if (bc.completed !== counts.completed || bc.failed !== counts.failed) {
          scheduleDetail();
        }
      }
    }

    // ---- list
    function selectTab() {
      STATES.forEach(function (st) {
        var on = st === current.state;
        tabLinks[st].classList.toggle('active', on);
        tabLinks[st].setAttribute('aria-selected', on ? 'true' : 'false');
      });
    }

    function scheduleList() {
      if (listTimer) {
        return;
      }
      listTimer = setTimeout(function () {
        listTimer = null;
        loadList();
      }, 300);
    }

    function loadList() {
      var token = ++listToken;
      var st = current.state;
      var page = current.page;
      var start = (page - 1) * PAGE_SIZE;
      return getJson(api.jobs(q, st, start, start + PAGE_SIZE - 1)).then(function (res) {
        if (seq !== state.seq || token !== listToken) {
          return;
        }
        var total = typeof res.total === 'number' ? res.total : 0;
        var pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
        if (page > pages) {
          location.replace(links.queue(q, st, pages));
          return;
        }
        renderList(st, res.jobs || []);
        renderPager(st, page, pages, total, start, (res.jobs || []).length);
      }).catch(function (e) {
        if (seq === state.seq && token === listToken) {
          replaceContent(listBox, messageBox('error', errorText(e)));
          clear(pager);
        }
      });
    }

    function columnsFor(st) {
      var cols = [
        { title: 'Id', cell: function (j) { return el('a', { href: links.job(q, j.id), class: 'mono' }, String(j.id)); } },
        { title: 'Name', cell: function (j) { return el('span', { class: 'job-name' }, j.name == null ? '' : String(j.name)); } }
      ];
      if (st === 'prioritized') {
        cols.push({ title: 'Priority', num: true, cell: function (j) { return String(j.priority); } });
      }
      if (st === 'delayed') {
        cols.push({ title: 'Due', cell: function (j) { return timeShort(j.timestamp + (j.delay || 0)); } });
        cols.push({ title: 'Delay', cell: function (j) { return fmtDuration(j.delay || 0); } });
      }
      cols.push({ title: 'Added', cell: function (j) { return timeShort(j.timestamp); } });
      if (st === 'active' || st === 'completed' || st === 'failed') {
        cols.push({ title: 'Started', cell: function (j) { return timeShort(j.processedOn); } });
      }
      if (st === 'active') {
        cols.push({ title: 'Progress', cell: function (j) { return progressNode(j.progress); } });
      }
      if (st === 'completed' || st === 'failed') {
        cols.push({ title: 'Finished', cell: function (j) { return timeShort(j.finishedOn); } });
        cols.push({
          title: 'Took', num: true, cell: function (j) {
            return isTime(j.finishedOn) && isTime(j.processedOn) ? fmtDuration(j.finishedOn - j.processedOn) : '–';
          }
        });
      }
      cols.push({
        title: 'Attempts', num: true, cell: function (j) {
          return String(j.attemptsMade || 0);
        }
      });
      if (st === 'failed') {
        cols.push({
          title: 'Reason', cell: function (j) {
            var reason = j.failedReason == null ? '' : String(j.failedReason);
            return el('span', { class: 'reason', title: reason }, reason);
          }
        });
      }
      if (state.config.actions && (st === 'failed' || st === 'delayed')) {
        cols.push({
          title: '', cell: function (j) {
            var action = st === 'failed' ? 'retry' : 'promote';
            var b = el('button', { type: 'button', class: 'btn btn-small', data: { action: action, job: j.id } },
              st === 'failed' ? 'Retry' : 'Promote');
            b.addEventListener('click', function () {
              runAction({
                path: api.jobAction(q, j.id, action),
                button: b,
                success: function () { return (action === 'retry' ? 'Retried job ' : 'Promoted job ') + j.id; },
                after: function () { return refreshAll(); }
              });
            });
            return b;
          }
        });
      }
      return cols;
    }

    function renderList(st, jobs) {
      if (jobs.length === 0) {
        replaceContent(listBox, el('p', { class: 'empty' }, 'No ' + st + ' jobs.'));
        return;
      }
      var cols = columnsFor(st);
      var headRow = el('tr');
      cols.forEach(function (c) {
        headRow.appendChild(el('th', { scope: 'col', class: c.num ? 'num' : null }, c.title));
      });
      var tbody = el('tbody');
      jobs.forEach(function (j) {
        var row = el('tr', { data: { job: j.id } });
        cols.forEach(function (c) {
          row.appendChild(el('td', { class: c.num ? 'num' : null }, c.cell(j)));
        });
        tbody.appendChild(row);
      });
      replaceContent(listBox, el('div', { class: 'table-wrap' },
        el('table', { class: 'table jobs-table', data: { state: st } }, el('thead', null, headRow), tbody)));
    }

    function renderPager(st, page, pages, total, start, shown) {
      clear(pager);
      if (total === 0) {
        return;
      }
      var info = el('span', { class: 'muted' },
        fmtCount(start + 1) + '\u2013' + fmtCount(start + shown) + ' of ' + fmtCount(total) +
        (st === 'completed' || st === 'failed' ? ' \u00b7 newest first' : ''));
      var prev = el('a', { class: 'btn btn-small', href: links.queue(q, st, page - 1), rel: 'prev' }, '\u2039 Newer');
      var next = el('a', { class: 'btn btn-small', href: links.queue(q, st, page + 1), rel: 'next' }, 'Older \u203a');
      if (st !== 'completed' && st !== 'failed' && st !== 'waiting' && st !== 'active') {
        prev.textContent = '\u2039 Previous';
        next.textContent = 'Next \u203a';
      }
      if (page <= 1) {
        prev.classList.add('disabled');
        prev.removeAttribute('href');
        prev.setAttribute('aria-disabled', 'true');
      }
      if (page >= pages) {
        next.classList.add('disabled');
        next.removeAttribute('href');
        next.setAttribute('aria-disabled', 'true');
      }
      appendChildren(pager, [info, el('span', { class: 'pager-buttons' }, prev,
        el('span', { class: 'page-no' }, 'page ' + page + ' of ' + pages), next)]);
    }

    // ---- detail: counts, schedulers, metrics
    function scheduleDetail() {
      if (detailTimer) {
        return;
      }
      var wait = Math.max(0, 5000 - (Date.now() - lastDetailAt));
      detailTimer = setTimeout(function () {
        detailTimer = null;
        refreshDetail(false);
      }, wait);
    }

    function refreshDetail(initial) {
      lastDetailAt = Date.now();
      var version = state.countsVersion;
      return getJson(api.queue(q)).then(function (d) {
        if (seq !== state.seq) {
          return;
        }
        // Live events may have brought newer counts meanwhile: keep those.
        var live = findQueue(state.queues, q);
        applySummary(live && version !== state.countsVersion ? live : d, false);
        renderSchedulers(d.schedulers || []);
        renderChart(d.metrics);
      }).catch(function (e) {
        if (seq !== state.seq) {
          return;
        }
        if (e instanceof ApiError && e.status === 404) {
          queueView.alive = false;
          mount(el('section', { class: 'view' },
            breadcrumb([{ text: 'Queues', href: links.overview() }, { text: q }]),
            messageBox('warn', ['no queue named ' + q + ' \u2013 ', el('a', { href: links.overview() }, 'back to the queues')])));
        } else if (initial) {
          flash('error', errorText(e));
        }
      });
    }

    function refreshAll() {
      return Promise.all([refreshDetail(false), loadList()]);
    }

    function renderSchedulers(list) {
      if (list.length === 0) {
        replaceContent(schedCard.body, el('p', { class: 'empty' }, 'No job schedulers.'));
        return;
      }
      var tbody = el('tbody');
      list.forEach(function (s) {
        var repeat = s.repeat || {};
        tbody.appendChild(el('tr', { data: { scheduler: s.id } },
          el('td', { class: 'mono' }, String(s.id)),
          el('td', null, s.name == null ? '' : String(s.name)),
          el('td', null, describeRepeat(repeat)),
          el('td', null, isTime(s.nextRun)
            ? [timeShort(s.nextRun), ' ', el('span', { class: 'rel' }, '(' + fmtRelative(s.nextRun) + ')')]
            : el('span', { class: 'muted' }, '–')),
          el('td', { class: 'num' }, fmtCount(s.iterations) + (repeat.limit != null ? ' / ' + fmtCount(repeat.limit) : ''))));
      });
      replaceContent(schedCard.body, el('div', { class: 'table-wrap' }, el('table', { class: 'table' },
        el('thead', null, el('tr', null,
          el('th', { scope: 'col' }, 'Id'), el('th', { scope: 'col' }, 'Job name'),
          el('th', { scope: 'col' }, 'Repeat'), el('th', { scope: 'col' }, 'Next run'),
          el('th', { scope: 'col', class: 'num' }, 'Runs'))),
        tbody)));
    }

    function renderChart(metrics) {
      var legend = document.getElementById('chart-legend');
      if (!metrics || !Array.isArray(metrics.completed) || !Array.isArray(metrics.failed)) {
        replaceContent(chartCard.body, el('p', { class: 'empty' }, 'No metrics.'));
        return;
      }
      replaceContent(chartCard.body, drawChart(metrics));
      var sum = function (a) { return a.reduce(function (x, y) { return x + (Number(y) || 0); }, 0); };
      replaceContent(legend,
        el('span', { class: 'key key-completed' }), 'completed ', el('strong', { id: 'metric-completed' }, fmtCount(sum(metrics.completed))),
        el('span', { class: 'key key-failed' }), 'failed ', el('strong', { id: 'metric-failed' }, fmtCount(sum(metrics.failed))));
    }

    // ---- navigation within the page (tabs, paging) without rebuilding it
    function navigate(r) {
      current.state = r.state || 'waiting';
      current.page = r.page || 1;
      selectTab();
      clear(pager);
      replaceContent(listBox, el('p', { class: 'loading' }, 'Loading\u2026'));
      loadList();
    }

    selectTab();
    var live = findQueue(state.queues, q);
    if (live) {
      applySummary(live, false);
    }
    refreshDetail(true);
    loadList();

    var queueView = {
      route: route,
      alive: true,
      navigate: navigate,
      onCounts: function (queues) {
        var s = findQueue(queues, q);
        if (s && countsKey(s) !== countsKey(summary)) {
          applySummary(s, true);
        }
      },
      dispose: function () {
        clearTimeout(detailTimer);
        clearTimeout(listTimer);
      }
    };
    return queueView;
  }

  /** A per-minute bar chart of completed and failed jobs, newest minute on the right. */
  function drawChart(metrics) {
    var completed = metrics.completed.slice().reverse();   // oldest first
    var failed = metrics.failed.slice().reverse();
    var n = Math.max(completed.length, failed.length, 1);
    var max = 0;
    for (var i = 0; i < n; i++) {
      max = Math.max(max, Number(completed[i]) || 0, Number(failed[i]) || 0);
    }
    var scaleMax = niceMax(max);
    var W = 600;
    var H = 160;
    var slot = W / n;
    var barW = Math.max(1, slot / 2 - 0.6);
    var svg = svgEl('svg', {
      viewBox: '0 0 ' + W + ' ' + H, preserveAspectRatio: 'none', class: 'chart', role: 'img',
      'aria-label': 'Completed and failed jobs per minute over the last hour'
    });
    [0.25, 0.5, 0.75].forEach(function (f) {
      svg.appendChild(svgEl('line', { x1: 0, x2: W, y1: H * f, y2: H * f, class: 'grid' }));
    });
    svg.appendChild(svgEl('line', { x1: 0, x2: W, y1: H - 0.5, y2: H - 0.5, class: 'axis' }));
    var since = typeof metrics.since === 'number' ? metrics.since : null;
    for (var k = 0; k < n; k++) {
      var c = Number(completed[k]) || 0;
      var f = Number(failed[k]) || 0;
      var x = k * slot;
      var g = svgEl('g', { class: 'slot' });
      var label = (since != null ? minuteTime.format(new Date(since + k * 60000)) + ': ' : '') +
        c + ' completed, ' + f + ' failed';
      g.appendChild(svgEl('title', null, label));
      g.appendChild(svgEl('rect', { x: x, y: 0, width: slot, height: H, class: 'hit' }));
      if (c > 0) {
        var hc = Math.max(1.5, (c / scaleMax) * (H - 4));
        g.appendChild(svgEl('rect', { x: x + 0.3, y: H - hc, width: barW, height: hc, class: 'bar-completed' }));
      }
      if (f > 0) {
        var hf = Math.max(1.5, (f / scaleMax) * (H - 4));
        g.appendChild(svgEl('rect', { x: x + 0.3 + barW + 0.3, y: H - hf, width: barW, height: hf, class: 'bar-failed' }));
      }
      svg.appendChild(g);
    }
    var yAxis = el('div', { class: 'chart-y' }, el('span', null, fmtCount(scaleMax)), el('span', null, fmtCount(scaleMax / 2)), el('span', null, '0'));
    var xAxis = el('div', { class: 'chart-x' },
      el('span', null, since != null ? minuteTime.format(new Date(since)) : '60 min ago'),
      el('span', null, '30 min ago'),
      el('span', null, 'now'));
    return el('div', { class: 'chart-box' }, yAxis, el('div', { class: 'chart-plot' }, svg, xAxis));
  }

  function niceMax(max) {
    if (max <= 4) {
      return 4;
    }
    var pow = Math.pow(10, Math.floor(Math.log10(max)));
    var steps = [1, 2, 2.5, 5, 10];
    for (var i = 0; i < steps.length; i++) {
      if (steps[i] * pow >= max) {
        return steps[i] * pow;
      }
    }
    return 10 * pow;
  }

  function progressNode(progress) {
    if (progress == null) {
      return el('span', { class: 'muted' }, '–');
    }
    var p = parseJsonOr(progress, progress);
    if (typeof p === 'number' && isFinite(p)) {
      var pct = Math.max(0, Math.min(100, p));
      return el('span', { class: 'progress' },
        el('progress', { max: '100', value: String(pct) }), ' ', el('span', { class: 'small' }, String(p) + '%'));
    }
    return el('code', { class: 'small' }, typeof p === 'string' ? p : JSON.stringify(p));
  }

  // ---------------------------------------------------------------- job detail (#/queues/{q}/jobs/{id})

  function renderJob(route, seq) {
    var q = route.queue;
    var id = route.id;
    var lastJson = null;
    var refreshTimer = null;
    document.title = 'Job ' + id + ' \u00b7 ' + q + ' \u00b7 Bullpen';

    var bodyBox = el('div', { id: 'job-detail' }, el('p', { class: 'loading' }, 'Loading\u2026'));
    mount(el('section', { class: 'view view-job' },
      breadcrumb([{ text: 'Queues', href: links.overview() }, { text: q, href: links.queue(q) }, { text: 'Job ' + id }]),
      bodyBox));

    function load(initial) {
      return getJson(api.job(q, id)).then(function (job) {
        if (seq !== state.seq) {
          return;
        }
        var json = JSON.stringify(job);
        if (json !== lastJson) {
          lastJson = json;
          replaceContent(bodyBox, jobView(job));
        }
      }).catch(function (e) {
        if (seq !== state.seq) {
          return;
        }
        lastJson = null;
        if (e instanceof ApiError && e.status === 404) {
          replaceContent(bodyBox, messageBox('warn', [
            el('span', { id: 'job-not-found' }, 'no job with id ' + id), ' in ', q, ' \u2013 ',
            el('a', { href: links.queue(q) }, 'back to the queue')]));
        } else if (initial) {
          replaceContent(bodyBox, messageBox('error', errorText(e)));
        } else {
          flash('error', errorText(e));
        }
      });
    }

    function jobView(job) {
      var st = String(job.state || 'unknown');
      var opts = parseJsonOr(job.options, {}) || {};
      var head = el('div', { class: 'page-head' },
        el('div', { class: 'title-line' },
          el('h1', null, 'Job ', el('span', { class: 'mono', id: 'job-id' }, String(job.id))),
          stateBadge(st)),
        el('p', { class: 'job-title' }, el('span', { class: 'job-name', id: 'job-name' }, job.name == null ? '' : String(job.name))),
        actionsFor(job, st));

      var facts = el('dl', { class: 'facts' });
      function fact(label, value) {
        facts.appendChild(el('div', { class: 'fact' }, el('dt', null, label), el('dd', null, value)));
      }
      fact('State', stateBadge(st));
      fact('Attempts', String(job.attemptsMade || 0) + ' made, ' + String(job.attemptsStarted || 0) + ' started' +
        ', of ' + (typeof opts.attempts === 'number' ? opts.attempts : 1));
      fact('Progress', progressNode(job.progress));
      fact('Added', timeFull(job.timestamp));
      if (job.delay) {
        fact('Delay', [fmtDuration(job.delay) + ' (due ', timeShort(job.timestamp + job.delay), ')']);
      }
      fact('Processed', timeFull(job.processedOn));
      fact('Finished', timeFull(job.finishedOn));
      if (isTime(job.processedOn) && isTime(job.finishedOn)) {
        fact('Took', fmtDuration(job.finishedOn - job.processedOn));
      }
      if (job.priority) {
        fact('Priority', String(job.priority));
      }
      if (job.processedBy != null) {
        fact('Processed by', el('span', { class: 'mono' }, String(job.processedBy)));
      }
      fact('Stalled', String(job.stalledCount || 0) + ' time(s)');
      if (job.fencingToken != null) {
        fact('Fencing token', el('span', { class: 'mono' }, String(job.fencingToken)));
      }
      if (job.schedulerId != null) {
        fact('Scheduler', el('span', { class: 'mono' }, String(job.schedulerId)));
      }

      var sections = [];
      if (job.failedReason != null && job.failedReason !== '') {
        var fr = card('Failed reason');
        fr.node.classList.add('card-failed');
        fr.body.appendChild(el('pre', { class: 'code code-error', id: 'job-failed-reason' }, String(job.failedReason)));
        sections.push(fr.node);
      }
      var data = card('Data');
      data.body.appendChild(el('pre', { class: 'code', id: 'job-data' }, prettyJson(job.data) || ''));
      sections.push(data.node);
      if (job.returnValue != null) {
        var rv = card('Return value');
        rv.body.appendChild(el('pre', { class: 'code', id: 'job-return-value' }, prettyJson(job.returnValue)));
        sections.push(rv.node);
      }
      if (job.progress != null) {
        var pr = card('Progress');
        pr.body.appendChild(el('pre', { class: 'code', id: 'job-progress' }, prettyJson(job.progress)));
        sections.push(pr.node);
      }
      var logs = Array.isArray(job.logs) ? job.logs : [];
      var lg = card('Logs', el('span', { class: 'muted small' }, fmtCount(logs.length) + ' line(s)'));
      if (logs.length) {
        var ol = el('ol', { class: 'logs', id: 'job-logs' });
        logs.forEach(function (line) { ol.appendChild(el('li', null, String(line))); });
        lg.body.appendChild(ol);
      } else {
        lg.body.appendChild(el('p', { class: 'empty' }, 'No logs.'));
      }
      sections.push(lg.node);
      // Stored oldest first (one appended per failed attempt, capped): shown newest first.
      var traces = Array.isArray(job.stacktrace) ? job.stacktrace.slice().reverse() : [];
      if (traces.length) {
        var stc = card('Stack traces', el('span', { class: 'muted small' },
          traces.length > 1 ? fmtCount(traces.length) + ', newest first' : '1'));
        traces.forEach(function (t, i) {
          var d = el('details', { class: 'trace' }, el('summary', null, firstLine(String(t)) || 'trace ' + (i + 1)),
            el('pre', { class: 'code code-error' }, String(t)));
          if (i === 0) {
            d.open = true;
          }
          stc.body.appendChild(d);
        });
        sections.push(stc.node);
      }
      var op = card('Options');
      op.body.appendChild(el('pre', { class: 'code', id: 'job-options' }, prettyJson(job.options) || '{}'));
      sections.push(op.node);

      return el('div', null, head, el('div', { class: 'job-grid' },
        el('section', { class: 'card facts-card' }, el('div', { class: 'card-head' }, el('h2', null, 'Summary')),
          el('div', { class: 'card-body' }, facts)),
        el('div', { class: 'job-sections' }, sections)));
    }

    function actionsFor(job, st) {
      if (!state.config.actions) {
        return null;
      }
      var box = el('div', { class: 'actions-bar', id: 'job-actions' });
      function button(action, label, cls, confirmText, success, after) {
        var b = el('button', { type: 'button', class: 'btn ' + (cls || ''), data: { action: action } }, label);
        b.addEventListener('click', function () {
          runAction({
            path: api.jobAction(q, job.id, action),
            button: b,
            confirm: confirmText,
            success: success,
            after: after
          });
        });
        box.appendChild(b);
      }
      var reload = function () { return load(false); };
      if (st === 'failed') {
        button('retry', 'Retry', 'btn-primary', null, function () { return 'Job ' + job.id + ' moved to waiting'; }, reload);
      }
      if (st === 'delayed') {
        button('promote', 'Promote', 'btn-primary', null, function () { return 'Job ' + job.id + ' promoted to waiting'; }, reload);
      }
      button('remove', 'Remove', 'btn-danger', 'Remove job ' + job.id + ' from ' + q + '?',
        function () { return 'Removed job ' + job.id; },
        function () { location.hash = links.queue(q); });
      return box;
    }

    load(true);

    var lastKey = countsKey(findQueue(state.queues, q));
    return {
      onCounts: function (queues) {
        var key = countsKey(findQueue(queues, q));
        if (key === lastKey || refreshTimer) {
          return;
        }
        lastKey = key;
        refreshTimer = setTimeout(function () {
          refreshTimer = null;
          load(false);
        }, 250);
      },
      dispose: function () { clearTimeout(refreshTimer); }
    };
  }

  function firstLine(s) {
    var i = s.indexOf('\n');
    var line = i >= 0 ? s.slice(0, i) : s;
    return line.length > 160 ? line.slice(0, 157) + '\u2026' : line;
  }

  // ---------------------------------------------------------------- router

  function render() {
    var route = parseRoute();
    var v = state.view;
    if (v && v.route && v.navigate && v.alive && route.name === 'queue' && v.route.name === 'queue' && v.route.queue === route.queue) {
      v.route = route;
      v.navigate(route);
      return;
    }
    if (v && v.dispose) {
      v.dispose();
    }
    var seq = ++state.seq;
    var view;
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

  function start() {
    document.getElementById('forget-token').addEventListener('click', function () {
      setToken(null);
      flash('ok', 'Token forgotten');
    });
    getJson(api.config()).then(function (cfg) {
      state.config = {
        readOnly: !!(cfg && cfg.readOnly),
        actions: !!(cfg && cfg.actions),
        version: cfg && cfg.version ? String(cfg.version) : ''
      };
    }).catch(function (e) {
      flash('error', 'Could not read the configuration (' + errorText(e) + '); actions are hidden');
    }).then(function () {
      var badge = document.getElementById('mode-badge');
      badge.hidden = state.config.actions;
      badge.textContent = state.config.readOnly ? 'read-only' : 'view only';
      document.getElementById('version').textContent = state.config.version ? 'v' + state.config.version : '';
      document.body.classList.toggle('has-actions', state.config.actions);
      updateTokenButton();
      window.addEventListener('hashchange', render);
      connectEvents();
      render();
    });
  }

  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', start);
  } else {
    start();
  }
}());
