/* The queue page's jobs card: a tab per state with its count, search by id, the paged job list. */
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
  appendChildren(listCard.body, [search.message, tabsNav(page), page.listBox, page.pager]);
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
  selectTab(page);
  clear(page.pager);
  replaceContent(page.listBox, el('p', { class: 'loading' }, 'Loading\u2026'));
  loadList(page);
}

/** Reloads the list soon (live counts changed), once for a burst of changes. */
export function scheduleList(page) {
  if (page.listTimer) {
    return;
  }
  page.listTimer = setTimeout(function () {
    page.listTimer = null;
    loadList(page);
  }, 300);
}

export function loadList(page) {
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
