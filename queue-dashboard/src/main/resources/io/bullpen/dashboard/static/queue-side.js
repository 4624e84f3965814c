/* The queue page's side cards: the last hour's completed and failed jobs, and the job schedulers. */
import { el, replaceContent, svgEl } from './dom.js';
import { describeRepeat, fmtCount, fmtRelative, isTime, minuteTime, timeShort } from './format.js';

const CHART_W = 600;
const CHART_H = 160;

/** Fills the schedulers card: one row per scheduler (id, job name, repeat, next run, runs). */
export function renderSchedulers(schedCard, list) {
  if (list.length === 0) {
    replaceContent(schedCard.body, el('p', { class: 'empty' }, 'No job schedulers.'));
    return;
  }
  const tbody = el('tbody');
  list.forEach(function (s) {
    const repeat = s.repeat || {};
    tbody.appendChild(el('tr', { data: { scheduler: s.id } },
      el('td', { class: 'mono' }, String(s.id)),
      el('td', null, s.name == null ? '' : String(s.name)),
      el('td', null, describeRepeat(repeat)),
      el('td', null, isTime(s.nextRun)
        ? [timeShort(s.nextRun), ' ', el('span', { class: 'rel' }, '(' + fmtRelative(s.nextRun) + ')')]
        : el('span', { class: 'muted' }, '–')),
      el('td', { class: 'num' }, fmtCount(s.iterations) + (repeat.limit != null ? ' / ' + fmtCount(repeat.limit) : ''))));
  });
  replaceContent(schedCard.body, el('div', { class: 'table-wrap' }, el('table', { class: 'table' },
    el('thead', null, el('tr', null,
      el('th', { scope: 'col' }, 'Id'), el('th', { scope: 'col' }, 'Job name'),
      el('th', { scope: 'col' }, 'Repeat'), el('th', { scope: 'col' }, 'Next run'),
      el('th', { scope: 'col', class: 'num' }, 'Runs'))),
    tbody)));
}

/** Fills the chart card and its legend (the totals of the hour). */
export function renderChart(chartCard, metrics) {
  const legend = document.getElementById('chart-legend');
  if (!metrics || !Array.isArray(metrics.completed) || !Array.isArray(metrics.failed)) {
    replaceContent(chartCard.body, el('p', { class: 'empty' }, 'No metrics.'));
    return;
  }
  replaceContent(chartCard.body, drawChart(metrics));
  const sum = function (a) { return a.reduce(function (x, y) { return x + (Number(y) || 0); }, 0); };
  replaceContent(legend,
    el('span', { class: 'key key-completed' }), 'completed ', el('strong', { id: 'metric-completed' }, fmtCount(sum(metrics.completed))),
    el('span', { class: 'key key-failed' }), 'failed ', el('strong', { id: 'metric-failed' }, fmtCount(sum(metrics.failed))));
}

/** A per-minute bar chart of completed and failed jobs, newest minute on the right. */
function drawChart(metrics) {
  const completed = metrics.completed.slice().reverse();   // oldest first
  const failed = metrics.failed.slice().reverse();
  const n = Math.max(completed.length, failed.length, 1);
  let max = 0;
  for (let i = 0; i < n; i++) {
    max = Math.max(max, Number(completed[i]) || 0, Number(failed[i]) || 0);
  }
  const scaleMax = niceMax(max);
  const since = typeof metrics.since === 'number' ? metrics.since : null;
  const svg = chartFrame();
  const slot = CHART_W / n;
  for (let k = 0; k < n; k++) {
    svg.appendChild(minuteBars(Number(completed[k]) || 0, Number(failed[k]) || 0,
      { x: k * slot, slot: slot, scaleMax: scaleMax, minute: since != null ? since + k * 60000 : null }));
  }
  const yAxis = el('div', { class: 'chart-y' }, el('span', null, fmtCount(scaleMax)), el('span', null, fmtCount(scaleMax / 2)), el('span', null, '0'));
  const xAxis = el('div', { class: 'chart-x' },
    el('span', null, since != null ? minuteTime.format(new Date(since)) : '60 min ago'),
    el('span', null, '30 min ago'),
    el('span', null, 'now'));
  return el('div', { class: 'chart-box' }, yAxis, el('div', { class: 'chart-plot' }, svg, xAxis));
}

/** The empty chart: grid lines and the axis. */
function chartFrame() {
  const svg = svgEl('svg', {
    viewBox: '0 0 ' + CHART_W + ' ' + CHART_H, preserveAspectRatio: 'none', class: 'chart', role: 'img',
    'aria-label': 'Completed and failed jobs per minute over the last hour'
  });
  [0.25, 0.5, 0.75].forEach(function (f) {
    svg.appendChild(svgEl('line', { x1: 0, x2: CHART_W, y1: CHART_H * f, y2: CHART_H * f, class: 'grid' }));
  });
  svg.appendChild(svgEl('line', { x1: 0, x2: CHART_W, y1: CHART_H - 0.5, y2: CHART_H - 0.5, class: 'axis' }));
  return svg;
}

/** One minute's two bars and its tooltip; at: { x, slot, scaleMax, minute (ms or null) }. */
function minuteBars(c, f, at) {
  const barW = Math.max(1, at.slot / 2 - 0.6);
  const g = svgEl('g', { class: 'slot' });
  const label = (at.minute != null ? minuteTime.format(new Date(at.minute)) + ': ' : '') +
    c + ' completed, ' + f + ' failed';
  g.appendChild(svgEl('title', null, label));
  g.appendChild(svgEl('rect', { x: at.x, y: 0, width: at.slot, height: CHART_H, class: 'hit' }));
  if (c > 0) {
    const hc = Math.max(1.5, (c / at.scaleMax) * (CHART_H - 4));
    g.appendChild(svgEl('rect', { x: at.x + 0.3, y: CHART_H - hc, width: barW, height: hc, class: 'bar-completed' }));
  }
  if (f > 0) {
    const hf = Math.max(1.5, (f / at.scaleMax) * (CHART_H - 4));
    g.appendChild(svgEl('rect', { x: at.x + 0.3 + barW + 0.3, y: CHART_H - hf, width: barW, height: hf, class: 'bar-failed' }));
  }
  return g;
}

/** A round scale maximum at or above max: 4, then 1, 2, 2.5, 5 times a power of ten. */
function niceMax(max) {
  if (max <= 4) {
    return 4;
  }
  const pow = Math.pow(10, Math.floor(Math.log10(max)));
  const steps = [1, 2, 2.5, 5, 10];
  for (let i = 0; i < steps.length; i++) {
    if (steps[i] * pow >= max) {
      return steps[i] * pow;
    }
  }
  return 10 * pow;
}
