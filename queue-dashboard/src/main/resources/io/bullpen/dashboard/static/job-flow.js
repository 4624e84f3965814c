/*
 * A job's place in flows, on its page: its parents (links; a parent may be in another queue), its
 * children a page at a time ("Load more" follows the server's cursor, the last child shown as
 * <queue>:<id>), each with its state, name and a link, and for a parent waiting for its children
 * the ones it still waits for (those that have not ended). A queue this dashboard does not show
 * is named without a link. Children live in any queue: when any queue's live counts change, a
 * list still on its first page is read again, at most every 2 s.
 */
import { api, errorText, getJson } from './api.js';
import { el, replaceContent } from './dom.js';
import { fmtCount } from './format.js';
import { links } from './routes.js';
import { state } from './state.js';
import { card, messageBox, stateBadge } from './ui.js';

const CHILD_PAGE = 20;
const RELOAD_MS = 2000;

/** A link to a job of any queue ("queue / id"), or the same words without a link when its queue is not shown. */
function jobRefNode(ref, attrs) {
  const text = [el('span', { class: 'muted' }, String(ref.queue) + ' / '), el('span', { class: 'mono' }, String(ref.id))];
  if (ref.shown) {
    return el('a', Object.assign({ href: links.job(ref.queue, ref.id) }, attrs || {}), text);
  }
  return el('span', Object.assign({ title: 'this dashboard does not show queue ' + ref.queue }, attrs || {}), text);
}

/** The job's parents as links, one a line; null when it has none. */
export function parentsNode(job) {
  const parents = Array.isArray(job.parents) ? job.parents : [];
  if (!parents.length) {
    return null;
  }
  const list = el('ul', { class: 'parents', id: 'job-parents' });
  parents.forEach(function (p) {
    list.appendChild(el('li', null, jobRefNode(p, { data: { parent: String(p.queue) + ':' + String(p.id) } })));
  });
  return list;
}

/**
 * The Children card and, for a parent waiting for its children, the Waiting-for card before it;
 * both fill themselves. The Children card stays hidden when the job has no children.
 */
export function flowCards(page, job) {
  clearTimeout(page.flowTimer);
  page.flowTimer = null;
  page.flowLists = [];
  if (String(job.state) === 'waiting-children') {
    page.flowLists.push(childrenCard(page, job, true));
  }
  page.flowLists.push(childrenCard(page, job, false));
  return page.flowLists.map(function (list) { return list.card.node; });
}

/** After new live counts: reads again the lists still on their first page, at most every RELOAD_MS. */
export function scheduleFlowReload(page) {
  if (page.flowTimer || !page.flowLists) {
    return;
  }
  page.flowTimer = setTimeout(function () {
    page.flowTimer = null;
    page.flowLists.forEach(function (list) {
      if (list.pages === 1 && !list.hidden && !list.loading) {
        list.next = null;
        list.pages = 0;
        loadChildren(list);
      }
    });
  }, Math.max(0, RELOAD_MS - (Date.now() - (page.flowLoadedAt || 0))));
}

function childrenCard(page, job, waitingFor) {
  const count = el('span', { class: 'muted small' });
  const c = card(waitingFor ? 'Waiting for' : 'Children', count);
  c.node.id = waitingFor ? 'job-waiting-for' : 'job-children';
  if (!waitingFor) {
    c.node.hidden = true;
  }
  const box = el('div', { class: 'children-list' }, el('p', { class: 'loading' }, 'Loading\u2026'));
  const more = el('button', { type: 'button', class: 'btn btn-small', id: waitingFor ? 'waiting-for-more' : 'children-more' },
    'Load more');
  more.hidden = true;
  c.body.appendChild(box);
  c.body.appendChild(el('div', { class: 'pager' }, more));
  const list = { page: page, job: job, waitingFor: waitingFor, card: c, box: box, more: more, count: count,
    next: null, rows: null, shown: 0, pages: 0, firstJson: null, hidden: false };
  more.addEventListener('click', function () {
    more.disabled = true;
    loadChildren(list);
  });
  loadChildren(list);
  return list;
}

function loadChildren(list) {
  const seq = list.page.seq;
  list.page.flowLoadedAt = Date.now();
  list.loading = true;
  return getJson(api.children(list.page.q, list.job.id, list.next, CHILD_PAGE, list.waitingFor ? false : null)).then(function (body) {
    list.loading = false;
    if (seq !== state.seq || list.page.flowLists.indexOf(list) < 0) {
      return;
    }
    showPage(list, body);
  }).catch(function (e) {
    list.loading = false;
    if (seq === state.seq) {
      list.more.disabled = false;
      replaceContent(list.box, messageBox('error', errorText(e)));
    }
  });
}

/** Adds a page of children to the list (the first page replaces what the list showed). */
function showPage(list, body) {
  const first = list.pages === 0;
  list.pages++;
  if (first) {
    const json = JSON.stringify(body);
    if (json === list.firstJson) {
      list.next = body.next;     // the same first page: nothing to redraw
      return;
    }
    list.firstJson = json;
    list.rows = el('tbody');
    list.shown = 0;
  }
  body.children.forEach(function (child) {
    list.rows.appendChild(childRow(child));
  });
  list.shown += body.children.length;
  list.next = body.next;
  list.more.hidden = body.next == null;
  list.more.disabled = false;
  if (!list.waitingFor) {
    list.hidden = body.total === 0;
    list.card.node.hidden = list.hidden;
    list.count.textContent = fmtCount(body.total) + ' in all';
  } else {
    list.count.textContent = fmtCount(list.shown) + (body.next == null ? ' not ended' : ' not ended so far') +
      ', of ' + fmtCount(body.total);
  }
  if (first) {
    replaceContent(list.box, list.shown === 0 && body.next == null ? emptyNote(list) : table(list));
  } else if (list.shown > 0 && !list.box.querySelector('table')) {
    replaceContent(list.box, table(list));
  }
}

function emptyNote(list) {
  if (list.waitingFor) {
    // Every child ended, but the parent still waits: the last ends are on their way to it.
    return el('p', { class: 'empty', id: 'waiting-for-none' },
      'Every child has ended; the parent moves on once their ends reach it.');
  }
  return el('p', { class: 'empty' }, 'No children.');
}

function table(list) {
  const head = el('tr', null, el('th', { scope: 'col' }, 'Child'), el('th', { scope: 'col' }, 'Name'),
    el('th', { scope: 'col' }, 'State'), el('th', { scope: 'col' }, 'Outcome'));
  return el('div', { class: 'table-wrap' },
    el('table', { class: 'table children-table', data: { waitingFor: String(list.waitingFor) } }, el('thead', null, head), list.rows));
}

function childRow(child) {
  const key = String(child.queue) + ':' + String(child.id);
  let outcome = el('span', { class: 'muted' }, '\u2013');
  if (child.failedReason != null) {
    outcome = el('span', { class: 'reason', title: String(child.failedReason) }, String(child.failedReason));
  } else if (child.returnValue != null) {
    outcome = el('code', { class: 'small' }, String(child.returnValue));
  }
  return el('tr', { data: { child: key, state: String(child.state) } },
    el('td', null, jobRefNode(child, { class: 'child-link' })),
    el('td', null, el('span', { class: 'job-name' }, child.name == null ? '' : String(child.name))),
    el('td', null, stateBadge(String(child.state))),
    el('td', null, outcome));
}
