/*
 * Live counts: the server's `counts` events (Server-Sent Events on api/events) update the shared
 * state and the current view. The stream is read with a streaming fetch(), not EventSource, so the
 * token travels in the X-Bullpen-Token header like every other request (EventSource cannot send a
 * header; a token never goes into a URL or a cookie).
 */
import { ApiError, askTokenForReads, openEventStream } from './api.js';
import { parseJsonOr } from './format.js';
import { state } from './state.js';
import { getToken } from './token.js';
import { setLive } from './ui.js';

const RECONNECT_MS = 5000;
let connecting = false;

/** Connects to api/events; after the stream ends or fails, connects again 5 s later. */
export function connectEvents() {
  if (connecting) {
    return;
  }
  if (typeof window.ReadableStream !== 'function' || typeof window.TextDecoder !== 'function') {
    setLive('off', 'no live updates');
    return;
  }
  connecting = true;
  openEventStream()
    .then(function (res) {
      if (res.status === 401) {
        return res.text().then(function (text) {
          const body = parseJsonOr(text, null);
          throw new ApiError(401, body && typeof body.error === 'string' ? body.error : 'HTTP 401');
        });
      }
      if (!res.ok || !res.body) {
        throw new ApiError(res.status, 'HTTP ' + res.status);
      }
      setLive('on', 'live');
      return readStream(res.body.getReader());
    })
    .then(function () {
      reconnect('reconnecting\u2026');
    }, function (e) {
      if (e instanceof ApiError && e.status === 401) {
        // Reads need the token: ask for it (the page's first read may already be asking), then connect.
        setLive('off', 'token needed');
        connecting = false;
        askTokenForReads(e).then(connectEvents, waitForToken);
        return;
      }
      reconnect('disconnected');
    });
}

/** The token prompt was cancelled: connect once a token is kept (another read asked for it), not before. */
function waitForToken() {
  setTimeout(function () {
    if (getToken()) {
      connectEvents();
    } else {
      waitForToken();
    }
  }, RECONNECT_MS);
}

function reconnect(label) {
  setLive(label === 'disconnected' ? 'off' : 'connecting', label);
  connecting = false;
  setTimeout(connectEvents, RECONNECT_MS);
}

/** Reads the event stream to its end: lines, one event per blank line (the SSE format). */
function readStream(reader) {
  const decoder = new TextDecoder();
  let buffer = '';
  let type = 'message';
  let data = [];
  function line(text) {
    if (text === '') {
      if (data.length) {
        dispatch(type, data.join('\n'));
      }
      type = 'message';
      data = [];
      return;
    }
    if (text.charAt(0) === ':') {
      return; // a comment: the server's ping
    }
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.substring(0, colon);
    let value = colon < 0 ? '' : text.substring(colon + 1);
    if (value.charAt(0) === ' ') {
      value = value.substring(1);
    }
    if (field === 'event') {
      type = value;
    } else if (field === 'data') {
      data.push(value);
    }
  }
  function pump() {
    return reader.read().then(function (chunk) {
      if (chunk.done) {
        return null;
      }
      buffer += decoder.decode(chunk.value, { stream: true });
      let end;
      while ((end = buffer.search(/\r\n|\r|\n/)) >= 0) {
        if (end === buffer.length - 1 && buffer.charAt(end) === '\r') {
          break; // maybe the first half of a CRLF split over two chunks
        }
        const text = buffer.substring(0, end);
        buffer = buffer.substring(end + (buffer.substr(end, 2) === '\r\n' ? 2 : 1));
        line(text);
      }
      return pump();
    });
  }
  return pump();
}

function dispatch(type, text) {
  if (type !== 'counts') {
    return;
  }
  const data = parseJsonOr(text, null);
  if (!data || !Array.isArray(data.queues)) {
    return;
  }
  state.queues = data.queues;
  state.countsVersion++;
  setLive('on', 'live');
  if (state.view && state.view.onCounts) {
    state.view.onCounts(data.queues);
  }
}
