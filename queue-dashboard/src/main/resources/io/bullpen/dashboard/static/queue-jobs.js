/*
 * The queue page's jobs card: a tab per state with its count, search by id, a search of the shown
 * state by name and data path (pages of matches by cursor, in place of the list), the paged job list.
 */
import { api, ApiError, errorText, getJson, runAction } from './api.js';
import { appendChildren, clear, el, replaceContent } from './dom.js';
import { fmtCount, fmtDuration, isTime, timeShort } from './format.js';
import { links } from './routes.js';
import { PAGE_SIZE, state, STATES } from './state.js';
import { card, messageBox, progressNode } from './ui.js';

/** Builds the card (search, tabs, list, pager); sets page.tabCounts, tabLinks, listBox and pager. */
export function jobsCard(page) {
  const search = searchForm(page);
  const listCard = card('Jobs', el('div', { class: 'card-tools' }, search.form));
  page.listBox = el('div', { id: 'job-list' }, el('p', { class: 'loading' }, 'Loading\u2026'));
  page.pager = el('div', { class: 'pager', id: 'pager' });
  page.filter = null;       // the search shown in place of the list: { name, path, value, cursor, next }
  appendChildren(listCard.body, [search.message, tabsNav(page), filterForm(page), page.listBox, page.pager]);
  return listCard;
}

function tabsNav(page) {
  const tabs = el('nav', { class: 'tabs', role: 'tablist', 'aria-label': 'Job states' });
  page.tabCounts = {};
  page.tabLinks = {};
  STATES.forEach(function (st) {
    const count = el('span', { class: 'tab-count', data: { queue: page.q, state: st } }, '–');
    page.tabCounts[st] = count;
    const a = el('a', { href: links.queue(page.q, st), role: 'tab', class: 'tab tab-' + st, data: { tab: st } },
      el('span', { class: 'tab-label' }, st), count);
    page.tabLinks[st] = a;
    tabs.appendChild(a);
  });
  return tabs;
}

/** Search by id: opens the job's page, or says there is no such job. */
function searchForm(page) {
  const q = page.q;
  const input = el('input', {
    type: 'search', id: 'job-search', name: 'id', placeholder: 'job id', 'aria-label': 'Job id',
    autocomplete: 'off', spellcheck: 'false'
  });
  const message = el('div', { class: 'search-message', id: 'search-message', role: 'status' });
  const form = el('form', { class: 'search', role: 'search', id: 'job-search-form' },
    input, el('button', { type: 'submit', class: 'btn' }, 'Open'));
  form.addEventListener('submit', function (ev) {
    ev.preventDefault();
    const id = input.value.trim();
    clear(message);
    if (!id) {
      input.focus();
      return;
    }
    getJson(api.job(q, id)).then(function () {
      location.hash = links.job(q, id);
    }).catch(function (e) {
      if (page.seq !== state.seq) {
        return;
      }
      if (e instanceof ApiError && e.status === 404) {
        replaceContent(message, messageBox('warn', 'no job with id ' + id));
      } else {
        replaceContent(message, messageBox('error', errorText(e)));
      }
    });
  });
  return { form: form, message: message };
}

/**
 * Search of the shown state by job name and the value at a data path (a JSON Pointer such as
 * /order/id). The value is JSON when it reads as JSON (17 a number, "17" a string), else text.
 */
function filterForm(page) {
  const name = el('input', { type: 'text', id: 'filter-name', name: 'name', placeholder: 'job name',
    'aria-label': 'Job name', autocomplete: 'off', spellcheck: 'false' });
  const path = el('input', { type: 'text', id: 'filter-path', name: 'path', placeholder: 'data path, e.g. /order/id',
    'aria-label': 'Data path (JSON Pointer)', autocomplete: 'off', spellcheck: 'false' });
  const value = el('input', { type: 'text', id: 'filter-value', name: 'value', placeholder: 'value: o-17, 17, "17"',
    'aria-label': 'Value at the data path (JSON, or text)', autocomplete: 'off', spellcheck: 'false' });
  const clearButton = el('button', { type: 'button', class: 'btn', id: 'filter-clear' }, 'Clear');
  const form = el('form', { class: 'search job-filter', role: 'search', id: 'job-filter-form',
    title: 'Scans the jobs of the state shown (there is no index): at most 10,000 per page' },
  name, path, value, el('button', { type: 'submit', class: 'btn' }, 'Search'), clearButton);
  form.addEventListener('submit', function (ev) {
    ev.preventDefault();
    const f = { name: name.value.trim(), path: path.value.trim(), value: value.value.trim(), cursor: null, next: null };
    if (!f.name && !f.path) {
      clearFilter(page);
      return;
    }
    page.filter = f;
    replaceContent(page.listBox, el('p', { class: 'loading' }, 'Searching\u2026'));
    clear(page.pager);
    loadList(page);
  });
  clearButton.addEventListener('click', function () {
    name.value = '';
    path.value = '';
    value.value = '';
    clearFilter(page);
  });
  return form;
}

function clearFilter(page) {
  if (page.filter) {
    page.filter = null;
    loadList(page);
  }
}

/** A page of the search: the matches, how many jobs it read, and buttons to go on by cursor. */
function loadSearch(page) {
  const token = ++page.listToken;
  const st = page.current.state;
  const f = page.filter;
  return getJson(api.search(page.q, st, f, f.cursor, PAGE_SIZE)).then(function (res) {
    if (page.seq !== state.seq || token !== page.listToken || page.filter !== f) {
      return;
    }
    f.next = res.next || null;
    const jobs = res.jobs || [];
    if (jobs.length === 0) {
      replaceContent(page.listBox, el('p', { class: 'empty', id: 'search-empty' },
        'No matching ' + st + ' jobs' + (f.next ? ' in this part; search on for more.' : '.')));
    } else {
      renderList(page, st, jobs);
    }
    renderSearchPager(page, f, jobs.length, res.scanned || 0);
  }).catch(function (e) {
    if (page.seq === state.seq && token === page.listToken) {
      replaceContent(page.listBox, messageBox('error', errorText(e)));
      clear(page.pager);
    }
  });
}

function renderSearchPager(page, f, shown, scanned) {
  clear(page.pager);
  const info = el('span', { class: 'muted', id: 'search-info' },
    fmtCount(shown) + ' matching, ' + fmtCount(scanned) + ' jobs read' + (f.cursor ? ' (continued)' : ''));
  const first = el('button', { type: 'button', class: 'btn btn-small', id: 'search-first' }, '\u00ab First');
  const more = el('button', { type: 'button', class: 'btn btn-small', id: 'search-more' }, 'More \u203a');
  first.disabled = !f.cursor;
  more.disabled = !f.next;
  first.addEventListener('click', function () {
    f.cursor = null;
    loadList(page);
  });
  more.addEventListener('click', function () {
    f.cursor = f.next;
    loadList(page);
  });
  appendChildren(page.pager, [info, el('span', { class: 'pager-buttons' }, first, more)]);
}

/** Marks the current state's tab. */
export function selectTab(page) {
  STATES.forEach(function (st) {
    const on = st === page.current.state;
    page.tabLinks[st].classList.toggle('active', on);
    page.tabLinks[st].setAttribute('aria-selected', on ? 'true' : 'false');
  });
}

/** Another tab or page of the same queue: the list is reloaded, the rest of the page stays. */
export function showList(page, route) {
  page.current.state = route.state || 'waiting';
  page.current.page = route.page || 1;
  if (page.filter) {
    page.filter.cursor = null;     // the same search, from the start of the new state
  }
  selectTab(page);
  clear(page.pager);
  replaceContent(page.listBox, el('p', { class: 'loading' }, 'Loading\u2026'));
  loadList(page);
}

/** Reloads the list soon (live counts changed), once for a burst of changes. */
export function scheduleList(page) {
  if (page.listTimer || page.filter) {
    return;
  }
  page.listTimer = setTimeout(function () {
    page.listTimer = null;
    loadList(page);
  }, 300);
}

export function loadList(page) {
  if (page.filter) {
    return loadSearch(page);
  }
  const token = ++page.listToken;
  const st = page.current.state;
  const pageNo = page.current.page;
  const start = (pageNo - 1) * PAGE_SIZE;
  return getJson(api.jobs(page.q, st, start, start + PAGE_SIZE - 1)).then(function (res) {
    if (page.seq !== state.seq || token !== page.listToken) {
      return;
    }
    const total = typeof res.total === 'number' ? res.total : 0;
    const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
    if (pageNo > pages) {
      location.replace(links.queue(page.q, st, pages));
      return;
    }
    renderList(page, st, res.jobs || []);
    renderPager(page, { st: st, page: pageNo, pages: pages, total: total, start: start, shown: (res.jobs || []).length });
  }).catch(function (e) {
    if (page.seq === state.seq && token === page.listToken) {
      replaceContent(page.listBox, messageBox('error', errorText(e)));
      clear(page.pager);
    }
  });
}

function renderList(page, st, jobs) {
  if (jobs.length === 0) {
    replaceContent(page.listBox, el('p', { class: 'empty' }, 'No ' + st + ' jobs.'));
    return;
  }
  const cols = columnsFor(page, st);
  const headRow = el('tr');
  cols.forEach(function (c) {
    headRow.appendChild(el('th', { scope: 'col', class: c.num ? 'num' : null }, c.title));
  });
  const tbody = el('tbody');
  jobs.forEach(function (j) {
    const row = el('tr', { data: { job: j.id } });
    cols.forEach(function (c) {
      row.appendChild(el('td', { class: c.num ? 'num' : null }, c.cell(j)));
    });
    tbody.appendChild(row);
  });
  replaceContent(page.listBox, el('div', { class: 'table-wrap' },
    el('table', { class: 'table jobs-table', data: { state: st } }, el('thead', null, headRow), tbody)));
}

/** The list's columns for a state: { title, num (right-aligned), cell(job) -> node or text }. */
function columnsFor(page, st) {
  const q = page.q;
  const cols = [
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
  timingColumns(st).forEach(function (c) { cols.push(c); });
  cols.push({ title: 'Attempts', num: true, cell: function (j) { return String(j.attemptsMade || 0); } });
  if (st === 'failed') {
    cols.push({
      title: 'Reason', cell: function (j) {
        const reason = j.failedReason == null ? '' : String(j.failedReason);
        return el('span', { class: 'reason', title: reason }, reason);
      }
    });
  }
  if (state.config.actions && (st === 'failed' || st === 'delayed')) {
    cols.push({ title: '', cell: function (j) { return rowAction(page, st, j); } });
  }
  return cols;
}

/** Started, progress, finished and took: for the states that have them. */
function timingColumns(st) {
  const cols = [];
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
  return cols;
}

/** Retry (failed) or Promote (delayed) one job from the list. */
function rowAction(page, st, j) {
  const action = st === 'failed' ? 'retry' : 'promote';
  const b = el('button', { type: 'button', class: 'btn btn-small', data: { action: action, job: j.id } },
    st === 'failed' ? 'Retry' : 'Promote');
  b.addEventListener('click', function () {
    runAction({
      path: api.jobAction(page.q, j.id, action),
      button: b,
      success: function () { return (action === 'retry' ? 'Retried job ' : 'Promoted job ') + j.id; },
      after: function () { return page.refreshAll(); }
    });
  });
  return b;
}

/** p: { st, page, pages, total, start, shown }. */
function renderPager(page, p) {
  const pager = page.pager;
  const st = p.st;
  clear(pager);
  if (p.total === 0) {
    return;
  }
  const info = el('span', { class: 'muted' },
    fmtCount(p.start + 1) + '\u2013' + fmtCount(p.start + p.shown) + ' of ' + fmtCount(p.total) +
    (st === 'completed' || st === 'failed' ? ' \u00b7 newest first' : ''));
  const prev = el('a', { class: 'btn btn-small', href: links.queue(page.q, st, p.page - 1), rel: 'prev' }, '\u2039 Newer');
  const next = el('a', { class: 'btn btn-small', href: links.queue(page.q, st, p.page + 1), rel: 'next' }, 'Older \u203a');
  if (st !== 'completed' && st !== 'failed' && st !== 'waiting' && st !== 'active') {
    prev.textContent = '\u2039 Previous';
    next.textContent = 'Next \u203a';
  }
  if (p.page <= 1) {
    disable(prev);
  }
  if (p.page >= p.pages) {
    disable(next);
  }
  appendChildren(pager, [info, el('span', { class: 'pager-buttons' }, prev,
    el('span', { class: 'page-no' }, 'page ' + p.page + ' of ' + p.pages), next)]);
}

function disable(link) {
  link.classList.add('disabled');
  link.removeAttribute('href');
  link.setAttribute('aria-disabled', 'true');
}
