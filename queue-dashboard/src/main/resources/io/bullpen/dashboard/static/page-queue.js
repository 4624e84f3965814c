/*
 * The queue page (#/queues/{q}): counts per state as tabs over a paged job list, the queue's
 * actions, its limits and groups, its last hour of metrics and its job schedulers. Tabs and paging
 * re-use the page; live counts refresh the list when the shown state changed, the metrics when
 * jobs finished, and the groups.
 * Its parts: queue-jobs.js (tabs, search, list), queue-actions.js, queue-limits.js,
 * queue-groups.js, queue-workers.js, queue-side.js (chart, schedulers).
 */
import { api, ApiError, errorText, getJson } from './api.js';
import { appendChildren, el } from './dom.js';
import { fmtCount } from './format.js';
import { queueActions } from './queue-actions.js';
import { disposeGroups, groupsCard, loadGroups, scheduleGroups } from './queue-groups.js';
import { jobsCard, loadList, scheduleList, selectTab, showList } from './queue-jobs.js';
import { limitsCard, loadLimits, updateActive } from './queue-limits.js';
import { renderChart, renderSchedulers } from './queue-side.js';
import { disposeWorkers, loadWorkers, scheduleWorkers, workersCard } from './queue-workers.js';
import { links } from './routes.js';
import { countsKey, findQueue, state, STATES } from './state.js';
import { breadcrumb, card, flash, lacksWorkers, messageBox, mount, noWorkersBadge, pausedBadge, pulse } from './ui.js';

/** Shows a queue's page; returns its view (which also follows tab and page changes). */
export function renderQueue(route, seq) {
  const page = newPage(route, seq);
  document.title = page.q + ' \u00b7 Bullpen';
  mount(layout(page));
  if (state.config.actions) {
    appendChildren(page.actionsBox, queueActions(page));
  }
  selectTab(page);
  const live = findQueue(state.queues, page.q);
  if (live) {
    applySummary(page, live, false);
  }
  refreshDetail(page, true);
  loadList(page);
  loadLimits(page);
  loadGroups(page);
  loadWorkers(page);
  page.view = queueView(page, route);
  return page.view;
}

/** The page's state, shared by its parts. */
function newPage(route, seq) {
  const page = {
    q: route.queue,
    seq: seq,
    current: { state: route.state || 'waiting', page: route.page || 1 },
    summary: null,          // the latest QueueSummary of this queue
    listToken: 0,           // the newest list request
    lastDetailAt: 0,
    detailTimer: null,
    listTimer: null,
    pauseButton: null,      // set by queueActions when there are actions
    view: null
  };
  page.refreshDetail = function (initial) { return refreshDetail(page, initial); };
  page.refreshAll = function () { return refreshAll(page); };
  return page;
}

function layout(page) {
  const q = page.q;
  page.paused = pausedBadge(q, false);
  page.noWorkers = noWorkersBadge(q);
  page.actionsBox = el('div', { class: 'actions-bar', id: 'queue-actions' });
  page.chartCard = card('Last hour', el('div', { class: 'legend', id: 'chart-legend' }));
  page.chartCard.node.id = 'metrics';
  page.schedCard = card('Job schedulers');
  page.schedCard.node.id = 'schedulers';
  const head = el('div', { class: 'page-head' },
    el('div', { class: 'title-line' }, el('h1', null, q), page.paused, page.noWorkers),
    page.actionsBox);
  const body = el('div', { class: 'queue-body' }, jobsCard(page).node,
    el('div', { class: 'flow-grid' }, limitsCard(page), groupsCard(page)),
    workersCard(page),
    el('div', { class: 'side-grid' }, page.chartCard.node, page.schedCard.node));
  return el('section', { class: 'view view-queue' },
    breadcrumb([{ text: 'Queues', href: links.overview() }, { text: q }]), head, body);
}

function queueView(page, route) {
  return {
    route: route,
    alive: true,
    navigate: function (r) { showList(page, r); },
    onCounts: function (queues) {
      const s = findQueue(queues, page.q);
      if (s && countsKey(s) !== countsKey(page.summary)) {
        applySummary(page, s, true);
        scheduleGroups(page);
        scheduleWorkers(page);
      }
    },
    dispose: function () {
      clearTimeout(page.detailTimer);
      clearTimeout(page.listTimer);
      disposeGroups(page);
      disposeWorkers(page);
    }
  };
}

/** Shows a QueueSummary: paused badge and button, tab counts; from a live event, refreshes what changed. */
function applySummary(page, s, fromEvent) {
  const before = page.summary;
  page.summary = s;
  page.paused.hidden = !s.paused;
  page.noWorkers.hidden = !lacksWorkers(s);
  if (page.pauseButton) {
    page.pauseButton.textContent = s.paused ? 'Resume' : 'Pause';
    page.pauseButton.dataset.action = s.paused ? 'resume' : 'pause';
    page.pauseButton.classList.toggle('btn-primary', !!s.paused);
  }
  updateActive(page);
  const counts = s.counts || {};
  STATES.forEach(function (st) {
    const n = typeof counts[st] === 'number' ? counts[st] : 0;
    const tabCount = page.tabCounts[st];
    if (tabCount.dataset.count !== String(n)) {
      tabCount.dataset.count = String(n);
      tabCount.textContent = fmtCount(n);
      if (fromEvent) {
        pulse(tabCount);
      }
    }
  });
  if (fromEvent && before) {
    const bc = before.counts || {};
    if (bc[page.current.state] !== counts[page.current.state]) {
      scheduleList(page);
    }
    if (bc.completed !== counts.completed || bc.failed !== counts.failed) {
      scheduleDetail(page);
    }
  }
}

/** Refreshes counts, schedulers and metrics at most every 5 s. */
function scheduleDetail(page) {
  if (page.detailTimer) {
    return;
  }
  const wait = Math.max(0, 5000 - (Date.now() - page.lastDetailAt));
  page.detailTimer = setTimeout(function () {
    page.detailTimer = null;
    refreshDetail(page, false);
  }, wait);
}

function refreshDetail(page, initial) {
  page.lastDetailAt = Date.now();
  const version = state.countsVersion;
  return getJson(api.queue(page.q)).then(function (d) {
    if (page.seq !== state.seq) {
      return;
    }
    // Live events may have brought newer counts meanwhile: keep those.
    const live = findQueue(state.queues, page.q);
    applySummary(page, live && version !== state.countsVersion ? live : d, false);
    renderSchedulers(page.schedCard, d.schedulers || []);
    renderChart(page.chartCard, d.metrics);
  }).catch(function (e) {
    if (page.seq !== state.seq) {
      return;
    }
    if (e instanceof ApiError && e.status === 404) {
      showMissingQueue(page);
    } else if (initial) {
      flash('error', errorText(e));
    }
  });
}

function showMissingQueue(page) {
  const q = page.q;
  page.view.alive = false;
  mount(el('section', { class: 'view' },
    breadcrumb([{ text: 'Queues', href: links.overview() }, { text: q }]),
    messageBox('warn', ['no queue named ' + q + ' \u2013 ', el('a', { href: links.overview() }, 'back to the queues')])));
}

function refreshAll(page) {
  return Promise.all([refreshDetail(page, false), loadList(page)]);
}
