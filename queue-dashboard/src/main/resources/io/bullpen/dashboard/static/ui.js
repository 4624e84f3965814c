/* Pieces every page uses: messages, the live indicator, badges, cards, and mounting a page. */
import { el, replaceContent } from './dom.js';
import { parseJsonOr } from './format.js';

const appRoot = document.getElementById('app');
const flashArea = document.getElementById('flash');

/** A message at the top: 'ok' and 'info' fade after 6 s, 'error' stays until dismissed. */
export function flash(kind, text) {
  const item = el('div', { class: 'flash flash-' + kind, role: kind === 'error' ? 'alert' : 'status' },
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

/** The live-updates indicator: kind is on, off or connecting. */
export function setLive(kind, text) {
  const node = document.getElementById('live-status');
  node.className = 'live live-' + kind;
  node.textContent = text;
}

/** Marks a node as just changed (a short highlight), restarting the animation if needed. */
export function pulse(node) {
  node.classList.remove('changed');
  void node.offsetWidth;
  node.classList.add('changed');
}

export function stateBadge(st) {
  return el('span', { class: 'badge state-' + st }, st);
}

export function pausedBadge(queue, paused) {
  const b = el('span', { class: 'badge badge-paused', data: { queue: queue, paused: 'true' } }, 'paused');
  b.hidden = !paused;
  return b;
}

/** "no workers": the queue has ready jobs (waiting or prioritized) and no live worker. */
export function noWorkersBadge(queue) {
  const b = el('span', { class: 'badge badge-no-workers', data: { queue: queue, noWorkers: 'true' },
    title: 'jobs are waiting and no live worker consumes this queue' }, 'no workers');
  b.hidden = true;
  return b;
}

/** Whether a QueueSummary has ready jobs and nobody to run them. */
export function lacksWorkers(s) {
  const c = (s && s.counts) || {};
  return typeof s.workers === 'number' && s.workers === 0 && ((c.waiting || 0) + (c.prioritized || 0)) > 0;
}

/** items: [{ text, href }]; the last one (no href) is the current page. */
export function breadcrumb(items) {
  const nav = el('nav', { class: 'breadcrumb', 'aria-label': 'Breadcrumb' });
  items.forEach(function (item, i) {
    if (i > 0) {
      nav.appendChild(el('span', { class: 'sep', 'aria-hidden': 'true' }, '/'));
    }
    nav.appendChild(item.href ? el('a', { href: item.href }, item.text) : el('span', { 'aria-current': 'page' }, item.text));
  });
  return nav;
}

/** A titled card: { node, head, body }. */
export function card(title, extra) {
  const body = el('div', { class: 'card-body' });
  const head = el('div', { class: 'card-head' }, el('h2', null, title), extra || null);
  const node = el('section', { class: 'card' }, head, body);
  return { node: node, body: body, head: head };
}

export function messageBox(kind, children) {
  return el('div', { class: 'message message-' + kind }, children);
}

/** Shows a page in the main area, scrolled to the top. */
export function mount(node) {
  replaceContent(appRoot, node);
  window.scrollTo(0, 0);
}

/** A job's progress: a bar for a number (percent), else the value as code. */
export function progressNode(progress) {
  if (progress == null) {
    return el('span', { class: 'muted' }, '–');
  }
  const p = parseJsonOr(progress, progress);
  if (typeof p === 'number' && isFinite(p)) {
    const pct = Math.max(0, Math.min(100, p));
    return el('span', { class: 'progress' },
      el('progress', { max: '100', value: String(pct) }), ' ', el('span', { class: 'small' }, String(p) + '%'));
  }
  return el('code', { class: 'small' }, typeof p === 'string' ? p : JSON.stringify(p));
}
