/*
 * Bullpen dashboard: a small single-page app on hash routes, plain DOM APIs, native ES modules,
 * no dependencies and no build step. This module starts it: reads the server's configuration,
 * then connects the live counts and shows the page for the current hash.
 *
 * The modules: dom.js (the one way DOM is built from data), format.js, state.js, routes.js (hash
 * links), api.js (requests and actions), token.js, ui.js (shared pieces), live.js (SSE),
 * router.js, and one module per page: page-overview.js, page-queue.js (with queue-jobs.js,
 * queue-actions.js, queue-limits.js, queue-groups.js, queue-side.js) and page-job.js.
 *
 * Security rules kept throughout (see API.md): every value that comes from the server (queue
 * names, job ids, names, data, reasons, logs, stack traces) reaches the page through textContent /
 * createTextNode only; the DOM is built with createElement / createElementNS (dom.js); URL parts
 * go through encodeURIComponent; the token travels only in the X-Bullpen-Token header.
 */
import { api, errorText, getJson } from './api.js';
import { connectEvents } from './live.js';
import { render } from './router.js';
import { state } from './state.js';
import { setToken, updateTokenButton } from './token.js';
import { flash } from './ui.js';

function start() {
  document.getElementById('forget-token').addEventListener('click', function () {
    setToken(null);
    flash('ok', 'Token forgotten');
  });
  getJson(api.config()).then(function (cfg) {
    state.config = {
      readOnly: !!(cfg && cfg.readOnly),
      actions: !!(cfg && cfg.actions),
      version: cfg && cfg.version ? String(cfg.version) : ''
    };
  }).catch(function (e) {
    flash('error', 'Could not read the configuration (' + errorText(e) + '); actions are hidden');
  }).then(function () {
    const badge = document.getElementById('mode-badge');
    badge.hidden = state.config.actions;
    badge.textContent = state.config.readOnly ? 'read-only' : 'view only';
    document.getElementById('version').textContent = state.config.version ? 'v' + state.config.version : '';
    document.body.classList.toggle('has-actions', state.config.actions);
    updateTokenButton();
    window.addEventListener('hashchange', render);
    connectEvents();
    render();
  });
}

// A module script runs once the document is parsed.
start();
