/*
 * The queue page's Groups card: the queue's groups in name order, a page at a time (the cursor is
 * the last name of the page before), each with its waiting and active counts, paused flag and own
 * limits ("default" where the queue's default for groups applies), and Pause / Resume buttons when
 * the dashboard has actions. Live counts reload the shown page, at most every 3 s.
 */
import { api, ApiError, errorText, getJson, runAction } from './api.js';
import { el, replaceContent } from './dom.js';
import { fmtCount, fmtRateLimit } from './format.js';
import { state } from './state.js';
import { card, messageBox } from './ui.js';

export const GROUP_PAGE = 50;
const RELOAD_MS = 3000;

/** The card (filled by loadGroups); sets page.groups, the paging state. */
export function groupsCard(page) {
  const prev = el('button', { type: 'button', class: 'btn btn-small', id: 'groups-prev', disabled: true }, 'Previous');
  const next = el('button', { type: 'button', class: 'btn btn-small', id: 'groups-next', disabled: true }, 'Next');
  const c = card('Groups', el('div', { class: 'pager-buttons', id: 'groups-pager', hidden: true }, prev, next));
  c.node.id = 'groups';
  page.groups = { card: c, prev: prev, next: next, cursors: [null], index: 0, nextCursor: null, token: 0, timer: null, lastAt: 0 };
  prev.addEventListener('click', function () { turn(page, -1); });
  next.addEventListener('click', function () { turn(page, 1); });
  return c.node;
}

function turn(page, step) {
  const g = page.groups;
  if (step > 0 && g.nextCursor != null) {
    g.cursors[g.index + 1] = g.nextCursor;
    g.index++;
  } else if (step < 0 && g.index > 0) {
    g.index--;
  } else {
    return;
  }
  g.prev.disabled = true;     // until the page is shown: a second click must not skip past it
  g.next.disabled = true;
  loadGroups(page);
}

/** Reads the shown page of groups (the newest request wins) and fills the card. */
export function loadGroups(page) {
  const g = page.groups;
  const token = ++g.token;
  g.lastAt = Date.now();
  return getJson(api.groups(page.q, g.cursors[g.index], GROUP_PAGE)).then(function (body) {
    if (token !== g.token || page.seq !== state.seq) {
      return;
    }
    if (body.groups.length === 0 && g.index > 0) {
      g.index = 0;              // the groups of this page went away: back to the first page
      return loadGroups(page);
    }
    g.nextCursor = body.next;
    render(page, body.groups);
  }).catch(function (e) {
    if (token === g.token && page.seq === state.seq && !(e instanceof ApiError && e.status === 404)) {
      replaceContent(g.card.body, messageBox('error', errorText(e)));
    }
  });
}

/** After new live counts: reloads the shown page, at most every RELOAD_MS. */
export function scheduleGroups(page) {
  const g = page.groups;
  if (g.timer) {
    return;
  }
  g.timer = setTimeout(function () {
    g.timer = null;
    loadGroups(page);
  }, Math.max(0, RELOAD_MS - (Date.now() - g.lastAt)));
}

export function disposeGroups(page) {
  clearTimeout(page.groups.timer);
}

function render(page, groups) {
  const g = page.groups;
  g.prev.disabled = g.index === 0;
  g.next.disabled = g.nextCursor == null;
  document.getElementById('groups-pager').hidden = g.index === 0 && g.nextCursor == null;
  if (groups.length === 0) {
    replaceContent(g.card.body, el('p', { class: 'empty', id: 'no-groups' }, 'No groups.'));
    return;
  }
  const head = el('tr', null, el('th', { scope: 'col' }, 'Group'),
    el('th', { scope: 'col', class: 'num' }, 'waiting'), el('th', { scope: 'col', class: 'num' }, 'active'),
    el('th', { scope: 'col', class: 'num' }, 'Concurrency'), el('th', { scope: 'col' }, 'Rate limit'),
    el('th', { scope: 'col', class: 'num' }, 'Max size'), el('th', { scope: 'col', class: 'num' }, 'Weight'),
    state.config.actions ? el('th', { scope: 'col' }) : null);
  const tbody = el('tbody');
  groups.forEach(function (group) {
    tbody.appendChild(groupRow(page, group));
  });
  replaceContent(g.card.body, el('div', { class: 'table-wrap' },
    el('table', { class: 'table groups-table' }, el('thead', null, head), tbody)));
}

function groupRow(page, group) {
  const name = String(group.name);
  const badge = el('span', { class: 'badge badge-paused', data: { group: name, paused: 'true' } }, 'paused');
  badge.hidden = !group.paused;
  return el('tr', { data: { group: name, paused: String(!!group.paused) } },
    el('th', { scope: 'row', class: 'group-name' }, el('span', { class: 'mono' }, name), ' ', badge),
    el('td', { class: 'num', data: { count: 'waiting' } }, fmtCount(group.waiting)),
    el('td', { class: 'num', data: { count: 'active' } }, fmtCount(group.active)),
    el('td', { class: 'num' }, own(group.concurrency, fmtCount, 'default')),
    el('td', null, own(group.rateLimit, fmtRateLimit, 'default')),
    el('td', { class: 'num' }, own(group.maxSize, fmtCount, 'none')),
    el('td', { class: 'num' }, fmtCount(group.weight)),
    state.config.actions ? el('td', { class: 'row-actions' }, pauseButton(page, name, !!group.paused)) : null);
}

/** A group's own setting, or a muted word when it has none. */
function own(value, format, otherwise) {
  return value == null ? el('span', { class: 'muted' }, otherwise) : format(value);
}

function pauseButton(page, name, paused) {
  const action = paused ? 'resume' : 'pause';
  const button = el('button', { type: 'button', class: 'btn btn-small' + (paused ? ' btn-primary' : ''), data: { action: action } },
    paused ? 'Resume' : 'Pause');
  button.addEventListener('click', function () {
    runAction({
      path: api.groupAction(page.q, name, action),
      button: button,
      success: function () { return (paused ? 'Resumed group ' : 'Paused group ') + name; },
      after: function () { return loadGroups(page); }
    });
  });
  return button;
}
