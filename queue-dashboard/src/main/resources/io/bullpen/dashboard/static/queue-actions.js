/* The queue page's actions: pause or resume, retry every failed job, clean finished jobs. */
import { api, runAction } from './api.js';
import { el } from './dom.js';
import { fmtCount } from './format.js';
import { flash } from './ui.js';

/** The action bar's contents (only when the dashboard has actions); sets page.pauseButton. */
export function queueActions(page) {
  page.pauseButton = pauseButton(page);
  return [page.pauseButton, retryAllButton(page), cleanForm(page)];
}

/** Pause, or Resume while paused (applySummary keeps its label and data-action current). */
function pauseButton(page) {
  const q = page.q;
  const button = el('button', { type: 'button', class: 'btn', data: { action: 'pause' } }, 'Pause');
  button.addEventListener('click', function () {
    const resume = !!(page.summary && page.summary.paused);
    runAction({
      path: api.queueAction(q, resume ? 'resume' : 'pause'),
      button: button,
      success: function () { return (resume ? 'Resumed ' : 'Paused ') + q; },
      after: function () { return page.refreshDetail(true); }
    });
  });
  return button;
}

function retryAllButton(page) {
  const q = page.q;
  const button = el('button', { type: 'button', class: 'btn', data: { action: 'retry-failed' } }, 'Retry all failed');
  button.addEventListener('click', function () {
    const n = page.summary && page.summary.counts ? page.summary.counts.failed : null;
    runAction({
      path: api.queueAction(q, 'retry-failed'),
      button: button,
      confirm: 'Retry ' + (typeof n === 'number' ? fmtCount(n) + ' ' : 'all ') + 'failed jobs of ' + q + '?',
      success: function (b) { return 'Retried ' + fmtCount(b.count || 0) + ' failed job(s)'; },
      after: function () { return page.refreshAll(); }
    });
  });
  return button;
}

/** Clean [completed|failed] jobs finished over N minutes ago. */
function cleanForm(page) {
  const q = page.q;
  const cleanState = el('select', { id: 'clean-state', 'aria-label': 'State to clean' },
    el('option', { value: 'completed' }, 'completed'), el('option', { value: 'failed' }, 'failed'));
  const cleanMinutes = el('input', {
    type: 'number', id: 'clean-minutes', min: '0', step: '1', value: '60', class: 'input-small',
    'aria-label': 'Minutes'
  });
  const cleanButton = el('button', { type: 'submit', class: 'btn btn-danger' }, 'Clean');
  const form = el('form', { class: 'clean-form', id: 'clean-form' },
    el('span', null, 'Clean'), cleanState, el('span', null, 'jobs finished over'), cleanMinutes,
    el('span', null, 'min ago'), cleanButton);
  form.addEventListener('submit', function (ev) {
    ev.preventDefault();
    const minutes = Number(cleanMinutes.value);
    if (!isFinite(minutes) || minutes < 0 || Math.floor(minutes) !== minutes) {
      flash('error', 'Minutes must be a whole number, 0 or more');
      return;
    }
    const st = cleanState.value;
    runAction({
      path: api.clean(q, st, minutes * 60000),
      button: cleanButton,
      confirm: 'Remove ' + st + ' jobs of ' + q + ' that finished over ' + minutes + ' minute(s) ago?',
      success: function (b) { return 'Removed ' + fmtCount(b.count || 0) + ' ' + st + ' job(s)'; },
      after: function () { return page.refreshAll(); }
    });
  });
  return form;
}
