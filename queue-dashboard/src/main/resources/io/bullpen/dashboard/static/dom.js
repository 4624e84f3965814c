/*
 * The one way the page builds DOM. Every value that comes from the server (queue names, job ids,
 * names, data, reasons, logs, stack traces) reaches the page through el()/svgEl(): text goes in
 * with textContent / createTextNode, attributes with setAttribute, and inline handlers, style and
 * srcdoc are refused. No module parses HTML (no innerHTML, outerHTML, insertAdjacentHTML,
 * document.write); DashboardScriptsTest checks that.
 */

const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * Creates an element. props: class, text, data (dataset), on<event> (listeners), other keys are
 * attributes (true = present, null/false/undefined = absent). Children: nodes or text.
 */
export function el(tag, props, ...children) {
  const node = document.createElement(tag);
  setProps(node, props);
  appendChildren(node, children);
  return node;
}

/** Creates an SVG element with the given attributes. */
export function svgEl(tag, attrs, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  if (attrs) {
    Object.keys(attrs).forEach(function (k) {
      if (attrs[k] != null) {
        node.setAttribute(k, String(attrs[k]));
      }
    });
  }
  appendChildren(node, children);
  return node;
}

function setProps(node, props) {
  if (!props) {
    return;
  }
  Object.keys(props).forEach(function (k) {
    const v = props[k];
    if (v == null || v === false) {
      return;
    }
    if (k === 'class') {
      node.className = v;
    } else if (k === 'text') {
      node.textContent = String(v);
    } else if (k === 'data') {
      Object.keys(v).forEach(function (dk) {
        node.dataset[dk] = String(v[dk]);
      });
    } else if (k.indexOf('on') === 0 && typeof v === 'function') {
      node.addEventListener(k.slice(2), v);
    } else if (k === 'style' || k === 'srcdoc' || k.indexOf('on') === 0) {
      throw new Error('refusing to set attribute ' + k);
    } else {
      node.setAttribute(k, v === true ? '' : String(v));
    }
  });
}

/** Appends nodes and text (as text nodes); arrays are flattened, null and false skipped. */
export function appendChildren(node, children) {
  children.forEach(function add(c) {
    if (c == null || c === false) {
      return;
    }
    if (Array.isArray(c)) {
      c.forEach(add);
    } else if (c instanceof Node) {
      node.appendChild(c);
    } else {
      node.appendChild(document.createTextNode(String(c)));
    }
  });
}

export function clear(node) {
  while (node.firstChild) {
    node.removeChild(node.firstChild);
  }
  return node;
}

export function replaceContent(node, ...children) {
  clear(node);
  appendChildren(node, children);
  return node;
}
