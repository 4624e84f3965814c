/*
 * The job detail (#/queues/{q}/jobs/{id}): summary (with its parents in flows), what a waiting
 * parent still waits for, its children, data, result, logs, stack traces, options, actions.
 */
import { api, ApiError, errorText, getJson, runAction } from './api.js';
import { el, replaceContent } from './dom.js';
import { firstLine, fmtCount, fmtDuration, isTime, parseJsonOr, prettyJson, timeFull, timeShort } from './format.js';
import { flowCards, parentsNode, scheduleFlowReload } from './job-flow.js';
import { links } from './routes.js';
import { countsKey, findQueue, state } from './state.js';
import { breadcrumb, card, flash, messageBox, mount, progressNode, stateBadge } from './ui.js';

/** Shows a job's page; it reloads when the job's queue's live counts change. */
export function renderJob(route, seq) {
  const page = { q: route.queue, id: route.id, seq: seq, lastJson: null, refreshTimer: null };
  document.title = 'Job ' + page.id + ' \u00b7 ' + page.q + ' \u00b7 Bullpen';
  page.bodyBox = el('div', { id: 'job-detail' }, el('p', { class: 'loading' }, 'Loading\u2026'));
  mount(el('section', { class: 'view view-job' },
    breadcrumb([{ text: 'Queues', href: links.overview() }, { text: page.q, href: links.queue(page.q) }, { text: 'Job ' + page.id }]),
    page.bodyBox));
  load(page, true);

  let lastKey = countsKey(findQueue(state.queues, page.q));
  let lastAllKey = allCountsKey(state.queues);
  return {
    onCounts: function (queues) {
      const allKey = allCountsKey(queues);
      if (allKey !== lastAllKey) {
        lastAllKey = allKey;
        scheduleFlowReload(page);      // a child, in any queue, may have moved
      }
      const key = countsKey(findQueue(queues, page.q));
      if (key === lastKey || page.refreshTimer) {
        return;
      }
      lastKey = key;
      page.refreshTimer = setTimeout(function () {
        page.refreshTimer = null;
        load(page, false);
      }, 250);
    },
    dispose: function () {
      clearTimeout(page.refreshTimer);
      clearTimeout(page.flowTimer);
    }
  };
}

/** Every queue's counts as one string. */
function allCountsKey(queues) {
  return (queues || []).map(function (s) { return String(s.name) + '=' + countsKey(s); }).join('|');
}

/** Loads the job; redraws only when it changed. */
function load(page, initial) {
  return getJson(api.job(page.q, page.id)).then(function (job) {
    if (page.seq !== state.seq) {
      return;
    }
    const json = JSON.stringify(job);
    if (json !== page.lastJson) {
      page.lastJson = json;
      replaceContent(page.bodyBox, jobView(page, job));
    }
  }).catch(function (e) {
    if (page.seq !== state.seq) {
      return;
    }
    page.lastJson = null;
    if (e instanceof ApiError && e.status === 404) {
      replaceContent(page.bodyBox, messageBox('warn', [
        el('span', { id: 'job-not-found' }, 'no job with id ' + page.id), ' in ', page.q, ' \u2013 ',
        el('a', { href: links.queue(page.q) }, 'back to the queue')]));
    } else if (initial) {
      replaceContent(page.bodyBox, messageBox('error', errorText(e)));
    } else {
      flash('error', errorText(e));
    }
  });
}

function jobView(page, job) {
  const st = String(job.state || 'unknown');
  const head = el('div', { class: 'page-head' },
    el('div', { class: 'title-line' },
      el('h1', null, 'Job ', el('span', { class: 'mono', id: 'job-id' }, String(job.id))),
      stateBadge(st)),
    el('p', { class: 'job-title' }, el('span', { class: 'job-name', id: 'job-name' }, job.name == null ? '' : String(job.name))),
    actionsFor(page, job, st));
  return el('div', null, head, el('div', { class: 'job-grid' },
    el('section', { class: 'card facts-card' }, el('div', { class: 'card-head' }, el('h2', null, 'Summary')),
      el('div', { class: 'card-body' }, facts(job, st))),
    el('div', { class: 'job-sections' }, sections(page, job))));
}

/** The summary: state, attempts, times, and what else the job has. */
function facts(job, st) {
  const opts = parseJsonOr(job.options, {}) || {};
  const list = el('dl', { class: 'facts' });
  function fact(label, value) {
    list.appendChild(el('div', { class: 'fact' }, el('dt', null, label), el('dd', null, value)));
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
  const parents = parentsNode(job);
  if (parents) {
    fact(job.parents.length > 1 ? 'Parents' : 'Parent', parents);
  }
  return list;
}

/** A card holding one <pre> of text. */
function codeCard(title, id, text, cls) {
  const c = card(title);
  c.body.appendChild(el('pre', { class: cls || 'code', id: id }, text));
  return c;
}

/** The cards: failed reason, children (what a waiting parent waits for first), data, return value, progress, logs, stack traces, options. */
function sections(page, job) {
  const list = [];
  if (job.failedReason != null && job.failedReason !== '') {
    // A cancelled job (Queue.cancel) is failed with "cancelled: <reason>": shown under its own title.
    const cancelled = String(job.failedReason).indexOf('cancelled: ') === 0;
    const fr = codeCard(cancelled ? 'Cancelled' : 'Failed reason', 'job-failed-reason',
      cancelled ? String(job.failedReason).substring('cancelled: '.length) : String(job.failedReason), 'code code-error');
    fr.node.classList.add('card-failed');
    list.push(fr.node);
  }
  flowCards(page, job).forEach(function (c) { list.push(c); });
  list.push(codeCard('Data', 'job-data', prettyJson(job.data) || '').node);
  if (job.returnValue != null) {
    list.push(codeCard('Return value', 'job-return-value', prettyJson(job.returnValue)).node);
  }
  if (job.progress != null) {
    list.push(codeCard('Progress', 'job-progress', prettyJson(job.progress)).node);
  }
  list.push(logsCard(job));
  const traces = tracesCard(job);
  if (traces) {
    list.push(traces);
  }
  list.push(codeCard('Options', 'job-options', prettyJson(job.options) || '{}').node);
  return list;
}

function logsCard(job) {
  const logs = Array.isArray(job.logs) ? job.logs : [];
  const lg = card('Logs', el('span', { class: 'muted small' }, fmtCount(logs.length) + ' line(s)'));
  if (logs.length) {
    const ol = el('ol', { class: 'logs', id: 'job-logs' });
    logs.forEach(function (line) { ol.appendChild(el('li', null, String(line))); });
    lg.body.appendChild(ol);
  } else {
    lg.body.appendChild(el('p', { class: 'empty' }, 'No logs.'));
  }
  return lg.node;
}

/** Stored oldest first (one appended per failed attempt, capped): shown newest first, the newest open. */
function tracesCard(job) {
  const traces = Array.isArray(job.stacktrace) ? job.stacktrace.slice().reverse() : [];
  if (!traces.length) {
    return null;
  }
  const stc = card('Stack traces', el('span', { class: 'muted small' },
    traces.length > 1 ? fmtCount(traces.length) + ', newest first' : '1'));
  traces.forEach(function (t, i) {
    const d = el('details', { class: 'trace' }, el('summary', null, firstLine(String(t)) || 'trace ' + (i + 1)),
      el('pre', { class: 'code code-error' }, String(t)));
    if (i === 0) {
      d.open = true;
    }
    stc.body.appendChild(d);
  });
  return stc.node;
}

/**
 * Retry (failed), Promote (delayed), Cancel (waiting, delayed, prioritized, active, and a parent
 * waiting for its children: the children no other parent waits for are cancelled too) and
 * Remove; none without actions.
 */
function actionsFor(page, job, st) {
  if (!state.config.actions) {
    return null;
  }
  const q = page.q;
  const box = el('div', { class: 'actions-bar', id: 'job-actions' });
  function button(action, label, cls, confirmText, success, after) {
    const b = el('button', { type: 'button', class: 'btn ' + (cls || ''), data: { action: action } }, label);
    b.addEventListener('click', function () {
      runAction({ path: api.jobAction(q, job.id, action), button: b, confirm: confirmText, success: success, after: after });
    });
    box.appendChild(b);
  }
  const reload = function () { return load(page, false); };
  if (st === 'failed') {
    button('retry', 'Retry', 'btn-primary', null, function () { return 'Job ' + job.id + ' moved to waiting'; }, reload);
  }
  if (st === 'delayed') {
    button('promote', 'Promote', 'btn-primary', null, function () { return 'Job ' + job.id + ' promoted to waiting'; }, reload);
  }
  if (st === 'waiting' || st === 'delayed' || st === 'prioritized' || st === 'active' || st === 'waiting-children') {
    button('cancel', 'Cancel', 'btn-danger', 'Cancel job ' + job.id + ' in ' + q + '?',
      function () { return st === 'active' ? 'Cancel of job ' + job.id + ' sent to its worker' : 'Job ' + job.id + ' cancelled'; },
      reload);
  }
  button('remove', 'Remove', 'btn-danger', 'Remove job ' + job.id + ' from ' + q + '?',
    function () { return 'Removed job ' + job.id; },
    function () { location.hash = links.queue(q); });
  return box;
}
