/*
 * The queue page's Workers card: the queue's live workers from their heartbeats (name, host, pid,
 * concurrency, its active jobs, paused, started, last seen), reloaded after live counts change, at
 * most every 3 s, and every 10 s anyway (a worker may come or go while the counts stand still).
 */
import { api, errorText, getJson } from './api.js';
import { el, replaceContent } from './dom.js';
import { fmtCount, fmtRelative, isTime, timeShort } from './format.js';
import { state } from './state.js';
import { card, messageBox } from './ui.js';

const RELOAD_MS = 3000;
const REFRESH_MS = 10000;

/** The card (filled by loadWorkers); sets page.workers. */
export function workersCard(page) {
  const c = card('Workers', el('span', { class: 'muted small', id: 'workers-count' }));
  c.node.id = 'workers';
  page.workers = { card: c, token: 0, timer: null, lastAt: 0 };
  return c.node;
}

/** Reads the live workers (the newest request wins) and fills the card. */
export function loadWorkers(page) {
  const w = page.workers;
  const token = ++w.token;
  w.lastAt = Date.now();
  clearTimeout(w.timer);
  w.timer = setTimeout(function () { w.timer = null; loadWorkers(page); }, REFRESH_MS);
  return getJson(api.workers(page.q)).then(function (body) {
    if (page.seq !== state.seq || token !== w.token) {
      return;
    }
    render(page, Array.isArray(body.workers) ? body.workers : []);
  }).catch(function (e) {
    if (page.seq === state.seq && token === w.token) {
      replaceContent(w.card.body, messageBox('error', errorText(e)));
    }
  });
}

/** After new live counts: reloads, at most every RELOAD_MS. */
export function scheduleWorkers(page) {
  const w = page.workers;
  clearTimeout(w.timer);
  w.timer = setTimeout(function () {
    w.timer = null;
    loadWorkers(page);
  }, Math.max(0, RELOAD_MS - (Date.now() - w.lastAt)));
}

export function disposeWorkers(page) {
  clearTimeout(page.workers.timer);
  page.workers.token++;
}

function render(page, workers) {
  const w = page.workers;
  document.getElementById('workers-count').textContent =
    workers.length === 1 ? '1 worker' : fmtCount(workers.length) + ' workers';
  if (workers.length === 0) {
    replaceContent(w.card.body, el('p', { class: 'empty', id: 'no-workers' }, 'No live workers.'));
    return;
  }
  const head = el('tr', null, el('th', { scope: 'col' }, 'Worker'), el('th', { scope: 'col' }, 'Host'),
    el('th', { scope: 'col', class: 'num' }, 'PID'), el('th', { scope: 'col', class: 'num' }, 'Concurrency'),
    el('th', { scope: 'col', class: 'num', title: 'jobs it runs now' }, 'active'), el('th', { scope: 'col' }, 'Started'),
    el('th', { scope: 'col' }, 'Last seen'));
  const tbody = el('tbody');
  workers.forEach(function (worker) {
    tbody.appendChild(workerRow(worker));
  });
  replaceContent(w.card.body, el('div', { class: 'table-wrap' },
    el('table', { class: 'table workers-table' }, el('thead', null, head), tbody)));
}

function workerRow(worker) {
  const name = String(worker.name);
  const badge = el('span', { class: 'badge badge-paused', data: { worker: name, paused: 'true' } }, 'paused');
  badge.hidden = !worker.paused;
  return el('tr', { data: { worker: name, paused: String(!!worker.paused) } },
    el('th', { scope: 'row', class: 'worker-name' }, el('span', { class: 'mono' }, name), ' ', badge),
    el('td', { class: 'mono' }, String(worker.host)),
    el('td', { class: 'num' }, String(worker.pid)),
    el('td', { class: 'num', data: { count: 'concurrency' } }, fmtCount(worker.concurrency)),
    el('td', { class: 'num', data: { count: 'active' } }, fmtCount(worker.running)),
    el('td', null, timeShort(worker.started)),
    el('td', { data: { lastSeen: String(worker.lastSeen) } }, isTime(worker.lastSeen) ? fmtRelative(worker.lastSeen) : '–'));
}
