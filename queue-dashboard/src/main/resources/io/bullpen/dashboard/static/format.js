/* Numbers, times, durations and JSON text as the page shows them (nodes via dom.js). */
import { el } from './dom.js';

const numberFormat = new Intl.NumberFormat();
const fullTime = new Intl.DateTimeFormat(undefined, {
  year: 'numeric', month: 'short', day: 'numeric',
  hour: '2-digit', minute: '2-digit', second: '2-digit'
});
const shortTime = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
const dayTime = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
/** Hours and minutes: the chart's minute labels. */
export const minuteTime = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const relative = typeof Intl.RelativeTimeFormat === 'function'
  ? new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' }) : null;

export function fmtCount(n) {
  return typeof n === 'number' ? numberFormat.format(n) : '–';
}

export function isTime(ms) {
  return typeof ms === 'number' && isFinite(ms) && ms > 0;
}

export function fmtRelative(ms) {
  const diff = ms - Date.now();
  const abs = Math.abs(diff);
  const units = [['day', 86400000], ['hour', 3600000], ['minute', 60000], ['second', 1000]];
  for (let i = 0; i < units.length; i++) {
    if (abs >= units[i][1] || i === units.length - 1) {
      const value = Math.round(diff / units[i][1]);
      if (relative) {
        return relative.format(value, units[i][0]);
      }
      return value < 0 ? (-value) + ' ' + units[i][0] + 's ago' : 'in ' + value + ' ' + units[i][0] + 's';
    }
  }
  return '';
}

export function fmtDuration(ms) {
  if (typeof ms !== 'number' || !isFinite(ms)) {
    return '–';
  }
  if (ms < 1000) {
    return Math.round(ms) + ' ms';
  }
  let s = ms / 1000;
  if (s < 60) {
    return (s < 10 ? s.toFixed(1) : Math.round(s)) + ' s';
  }
  const parts = [];
  const d = Math.floor(s / 86400); s -= d * 86400;
  const h = Math.floor(s / 3600); s -= h * 3600;
  const m = Math.floor(s / 60); s = Math.round(s - m * 60);
  if (d) { parts.push(d + ' d'); }
  if (h) { parts.push(h + ' h'); }
  if (m && !d) { parts.push(m + ' min'); }
  if (s && !d && !h) { parts.push(s + ' s'); }
  return parts.join(' ');
}

/** A <time> with the local date and time, plus how long ago (or until). */
export function timeFull(ms) {
  if (!isTime(ms)) {
    return el('span', { class: 'muted' }, '–');
  }
  const d = new Date(ms);
  return el('time', { datetime: d.toISOString(), title: d.toISOString() },
    fullTime.format(d), ' ', el('span', { class: 'rel' }, '(' + fmtRelative(ms) + ')'));
}

/** A compact <time> for tables: the time today, else the day and time; the full time as a tooltip. */
export function timeShort(ms) {
  if (!isTime(ms)) {
    return el('span', { class: 'muted' }, '–');
  }
  const d = new Date(ms);
  const sameDay = d.toDateString() === new Date().toDateString();
  return el('time', { datetime: d.toISOString(), title: fullTime.format(d) + ' · ' + fmtRelative(ms) },
    sameDay ? shortTime.format(d) : dayTime.format(d));
}

/** Parses JSON text and pretty-prints it; text that is not JSON is returned as it is. */
export function prettyJson(value) {
  if (value == null) {
    return null;
  }
  if (typeof value !== 'string') {
    return JSON.stringify(value, null, 2);
  }
  try {
    return JSON.stringify(JSON.parse(value), null, 2);
  } catch (e) {
    return value;
  }
}

export function parseJsonOr(value, fallback) {
  if (typeof value !== 'string') {
    return value == null ? fallback : value;
  }
  try {
    return JSON.parse(value);
  } catch (e) {
    return fallback;
  }
}

/** A scheduler's repeat options in words: "cron 0 * * * * (UTC), limit 5". */
export function describeRepeat(r) {
  if (!r || typeof r !== 'object') {
    return '–';
  }
  const parts = [];
  if (r.cron != null) {
    parts.push('cron ' + r.cron + (r.zone ? ' (' + r.zone + ')' : ''));
  } else if (r.every != null) {
    parts.push('every ' + fmtDuration(Number(r.every)));
  }
  if (r.limit != null) { parts.push('limit ' + r.limit); }
  if (isTime(r.startAt)) { parts.push('from ' + fullTime.format(new Date(r.startAt))); }
  if (isTime(r.endAt)) { parts.push('until ' + fullTime.format(new Date(r.endAt))); }
  if (r.immediately) { parts.push('immediately'); }
  if (r.misfire) { parts.push('misfire ' + r.misfire); }
  return parts.join(', ');
}

const PER_UNITS = [['d', 86400000], ['h', 3600000], ['min', 60000], ['s', 1000], ['ms', 1]];

/** A RateLimit {max, per (ms), burst} in words: "100 per s", "10 per 5 min (burst 20)"; null: "none". */
export function fmtRateLimit(r) {
  if (!r || typeof r !== 'object') {
    return 'none';
  }
  const per = Number(r.per);
  let window = String(r.per) + ' ms';
  for (let i = 0; i < PER_UNITS.length; i++) {
    const n = per / PER_UNITS[i][1];
    if (per > 0 && Math.floor(n) === n) {
      window = (n === 1 ? '' : fmtCount(n) + ' ') + PER_UNITS[i][0];
      break;
    }
  }
  return fmtCount(Number(r.max)) + ' per ' + window + (r.burst > 0 ? ' (burst ' + fmtCount(Number(r.burst)) + ')' : '');
}

/** The first line of a text, cut at 160 characters. */
export function firstLine(s) {
  const i = s.indexOf('\n');
  const line = i >= 0 ? s.slice(0, i) : s;
  return line.length > 160 ? line.slice(0, 157) + '\u2026' : line;
}
