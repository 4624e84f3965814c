/*
 * A queue's limits (flow control), read-only: the queue's rate limit, its global concurrency with
 * the jobs active now against the cap, and the defaults for its groups. The queue page shows them
 * as a card; the overview as one compact line per queue (limitsLine).
 */
import { api, errorText, getJson } from './api.js';
import { el, replaceContent } from './dom.js';
import { fmtCount, fmtRateLimit } from './format.js';
import { card, messageBox } from './ui.js';

/** The queue page's Limits card (filled by loadLimits); sets page.limitsCard. */
export function limitsCard(page) {
  page.limitsCard = card('Limits');
  page.limitsCard.node.id = 'limits';
  page.limits = null;
  return page.limitsCard.node;
}

/** Reads the queue's limits and fills the card. */
export function loadLimits(page) {
  return getJson(api.limits(page.q)).then(function (limits) {
    page.limits = limits;
    renderLimits(page);
  }).catch(function (e) {
    replaceContent(page.limitsCard.body, messageBox('error', errorText(e)));
  });
}

function renderLimits(page) {
  const l = page.limits || {};
  const list = el('dl', { class: 'facts' });
  function fact(key, label, value) {
    list.appendChild(el('div', { class: 'fact' }, el('dt', null, label), el('dd', { data: { limit: key } }, value)));
  }
  fact('rateLimit', 'Rate limit', setting(l.rateLimit == null ? null : fmtRateLimit(l.rateLimit)));
  page.activeOfCap = el('span', null);
  fact('globalConcurrency', 'Global concurrency', l.globalConcurrency == null ? setting(null) : page.activeOfCap);
  fact('defaultGroupConcurrency', 'Group concurrency (default)',
    setting(l.defaultGroupConcurrency == null ? null : fmtCount(l.defaultGroupConcurrency) + ' active per group'));
  fact('defaultGroupRateLimit', 'Group rate limit (default)',
    setting(l.defaultGroupRateLimit == null ? null : fmtRateLimit(l.defaultGroupRateLimit) + ' per group'));
  replaceContent(page.limitsCard.body, list);
  updateActive(page);
}

/** Shows the live active count against the global concurrency cap (after new counts). */
export function updateActive(page) {
  if (!page.activeOfCap || !page.limits || page.limits.globalConcurrency == null) {
    return;
  }
  const active = page.summary && page.summary.counts ? page.summary.counts.active : null;
  page.activeOfCap.textContent = fmtCount(active) + ' active of ' + fmtCount(page.limits.globalConcurrency);
}

function setting(text) {
  return text == null ? el('span', { class: 'muted' }, 'none') : text;
}

/** The overview's compact limits of a queue: nodes, or a muted "none". */
export function limitsLine(limits, active) {
  if (!limits) {
    return el('span', { class: 'muted' }, '–');
  }
  const parts = [];
  if (limits.rateLimit != null) {
    parts.push(fmtRateLimit(limits.rateLimit));
  }
  if (limits.globalConcurrency != null) {
    parts.push(fmtCount(active) + ' / ' + fmtCount(limits.globalConcurrency) + ' active');
  }
  if (limits.defaultGroupConcurrency != null) {
    parts.push(fmtCount(limits.defaultGroupConcurrency) + ' active per group');
  }
  if (limits.defaultGroupRateLimit != null) {
    parts.push(fmtRateLimit(limits.defaultGroupRateLimit) + ' per group');
  }
  return parts.length === 0 ? el('span', { class: 'muted' }, 'none') : parts.join(' \u00b7 ');
}
