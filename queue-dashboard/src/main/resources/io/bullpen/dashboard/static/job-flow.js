/*
 * A job's place in flows, on its page: its parents (links; a parent may be in another queue), its
 * children a page at a time ("Load more" follows the server's cursor, the last child shown as
 * <queue>:<id>), each with its state, name and a link, and for a parent waiting for its children
 * the ones it still waits for (those that have not ended). A queue this dashboard does not show
 * is named without a link.
 */
import { api, errorText, getJson } from './api.js';
import { el, replaceContent } from './dom.js';
import { fmtCount } from './format.js';
import { links } from './routes.js';
import { state } from './state.js';
import { card, messageBox, stateBadge } from './ui.js';

export const CHILD_PAGE = 20;

/** A link to a job of any queue ("queue / id"), or the same words without a link when its queue is not shown. */
export function jobRefNode(ref, attrs) {
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
  const cards = [];
  if (String(job.state) === 'waiting-children') {
    cards.push(childrenCard(page, job, true).node);
  }
  cards.push(childrenCard(page, job, false).node);
  return cards;
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
    next: null, rows: null, shown: 0 };
  more.addEventListener('click', function () {
    more.disabled = true;
    loadChildren(list);
  });
  loadChildren(list);
  return c;
}

function loadChildren(list) {
  const seq = list.page.seq;
  return getJson(api.children(list.page.q, list.job.id, list.next, CHILD_PAGE, list.waitingFor ? false : null)).then(function (body) {
    if (seq !== state.seq) {
      return;
    }
    const first = list.rows == null;
    if (first) {
      list.rows = el('tbody');
    }
    body.children.forEach(function (child) {
      list.rows.appendChild(childRow(child));
    });
    list.shown += body.children.length;
    list.next = body.next;
    list.more.hidden = body.next == null;
    list.more.disabled = false;
    if (!list.waitingFor) {
      list.card.node.hidden = body.total === 0;
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
  }).catch(function (e) {
    if (seq === state.seq) {
      list.more.disabled = false;
      replaceContent(list.box, messageBox('error', errorText(e)));
    }
  });
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
