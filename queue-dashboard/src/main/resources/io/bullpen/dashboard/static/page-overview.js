/* The overview (#/): every queue's counts, live, with totals per state, and each queue's limits. */
import { getJson, api, errorText } from './api.js';
import { el, replaceContent } from './dom.js';
import { fmtCount } from './format.js';
import { limitsLine } from './queue-limits.js';
import { links } from './routes.js';
import { state, STATES } from './state.js';
import { card, lacksWorkers, messageBox, mount, noWorkersBadge, pausedBadge, pulse } from './ui.js';

/** Shows the overview; returns its view. */
export function renderOverview(seq) {
  document.title = 'Queues \u00b7 Bullpen';
  const page = {
    seq: seq,
    totals: el('div', { class: 'totals', id: 'totals' }),
    tableBox: el('div', { class: 'table-wrap' }),
    builtFor: null,     // the queue names the table was built for
    cells: {},          // name \u0000 state -> { cell, link }
    badges: {},         // name -> paused badge
    noWorkers: {},      // name -> "no workers" badge
    limitCells: {},     // name -> the limits cell
    limits: {},         // name -> Limits (read once per table build: settings rarely change)
    active: {},         // name -> the latest active count
    totalCells: {}
  };
  const listCard = card('Queues', el('span', { class: 'muted small', id: 'queue-count' }));
  listCard.body.appendChild(page.tableBox);
  mount(el('section', { class: 'view view-overview' },
    el('div', { class: 'page-head' }, el('h1', null, 'Overview')),
    page.totals, listCard.node));
  buildTotals(page);

  if (state.queues) {
    apply(page, state.queues, false);
  }
  load(page, seq);
  return { onCounts: function (queues) { apply(page, queues, true); } };
}

function load(page, seq) {
  const version = state.countsVersion;
  getJson(api.queues()).then(function (body) {
    if (seq !== state.seq || version !== state.countsVersion || !body || !Array.isArray(body.queues)) {
      return;        // navigated away, or a live update already brought newer counts
    }
    state.queues = body.queues;
    apply(page, body.queues, false);
  }).catch(function (e) {
    if (seq === state.seq && !state.queues) {
      replaceContent(page.tableBox, messageBox('error', errorText(e)));
    }
  });
}

function buildTotals(page) {
  STATES.forEach(function (st) {
    const value = el('div', { class: 'total-value', data: { total: st } }, '–');
    page.totalCells[st] = value;
    page.totals.appendChild(el('div', { class: 'total total-' + st }, el('div', { class: 'total-label' }, st), value));
  });
}

/** (Re)builds the table's rows for these queues; their counts are filled in by apply. */
function build(page, queues) {
  page.cells = {};
  page.badges = {};
  page.noWorkers = {};
  page.limitCells = {};
  if (queues.length === 0) {
    replaceContent(page.tableBox, messageBox('info', [
      el('strong', null, 'No queues yet. '),
      'A queue appears here once a job has been added to it.'
    ]));
    return;
  }
  const headRow = el('tr', null, el('th', { scope: 'col' }, 'Queue'));
  STATES.forEach(function (st) {
    headRow.appendChild(el('th', { scope: 'col', class: 'num' }, st));
  });
  headRow.appendChild(el('th', { scope: 'col' }, 'Limits'));
  const tbody = el('tbody');
  queues.forEach(function (qs) {
    tbody.appendChild(queueRow(page, String(qs.name)));
  });
  replaceContent(page.tableBox, el('table', { class: 'table overview-table', id: 'overview-table' },
    el('thead', null, headRow), tbody));
  loadLimits(page);
}

/** Reads every queue's limits (one request) and fills the Limits column. */
function loadLimits(page) {
  getJson(api.allLimits()).then(function (body) {
    if (page.seq !== state.seq) {
      return;
    }
    page.limits = {};
    body.queues.forEach(function (l) { page.limits[String(l.name)] = l; });
    Object.keys(page.limitCells).forEach(function (name) { showLimits(page, name); });
  }).catch(function (e) {
    if (page.seq === state.seq) {
      Object.keys(page.limitCells).forEach(function (name) {
        replaceContent(page.limitCells[name], el('span', { class: 'muted', title: errorText(e) }, '?'));
      });
    }
  });
}

function showLimits(page, name) {
  const cell = page.limitCells[name];
  if (cell && page.limits[name]) {
    replaceContent(cell, limitsLine(page.limits[name], page.active[name]));
  }
}

function queueRow(page, name) {
  const badge = pausedBadge(name, false);
  page.badges[name] = badge;
  page.noWorkers[name] = noWorkersBadge(name);
  const row = el('tr', { data: { queueRow: name } },
    el('th', { scope: 'row', class: 'queue-name' },
      el('a', { href: links.queue(name) }, name), ' ', badge, ' ', page.noWorkers[name]));
  STATES.forEach(function (st) {
    const link = el('a', { href: links.queue(name, st) }, '–');
    const cell = el('td', { class: 'num count state-text-' + st, data: { queue: name, state: st } }, link);
    page.cells[name + '\u0000' + st] = { cell: cell, link: link };
    row.appendChild(cell);
  });
  page.limitCells[name] = el('td', { class: 'limits', data: { limits: name } }, el('span', { class: 'muted' }, '–'));
  row.appendChild(page.limitCells[name]);
  return row;
}

/** Shows these counts: the table is rebuilt only when the queue names change. */
function apply(page, queues, animate) {
  const names = queues.map(function (q) { return String(q.name); }).join('\u0000');
  if (names !== page.builtFor) {
    build(page, queues);
    page.builtFor = names;
    animate = false;
  }
  const sums = {};
  STATES.forEach(function (st) { sums[st] = 0; });
  queues.forEach(function (qs) {
    const name = String(qs.name);
    const counts = qs.counts || {};
    STATES.forEach(function (st) {
      const n = typeof counts[st] === 'number' ? counts[st] : 0;
      sums[st] += n;
      updateCell(page.cells[name + '\u0000' + st], n, animate);
    });
    if (page.badges[name]) {
      page.badges[name].hidden = !qs.paused;
    }
    if (page.noWorkers[name]) {
      page.noWorkers[name].hidden = !lacksWorkers(qs);
    }
    if (page.active[name] !== counts.active) {
      page.active[name] = counts.active;
      showLimits(page, name);
    }
  });
  STATES.forEach(function (st) {
    page.totalCells[st].textContent = fmtCount(sums[st]);
    page.totalCells[st].dataset.count = String(sums[st]);
  });
  document.getElementById('queue-count').textContent =
    queues.length === 1 ? '1 queue' : fmtCount(queues.length) + ' queues';
}

function updateCell(c, n, animate) {
  if (!c || c.cell.dataset.count === String(n)) {
    return;
  }
  c.cell.dataset.count = String(n);
  c.link.textContent = fmtCount(n);
  c.cell.classList.toggle('zero', n === 0);
  if (animate) {
    pulse(c.cell);
  }
}
