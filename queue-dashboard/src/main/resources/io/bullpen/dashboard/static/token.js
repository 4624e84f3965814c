/* The dashboard's token: kept in this tab's sessionStorage, asked for in the token dialog. */
const TOKEN_KEY = 'bullpen.dashboard.token';

export function getToken() {
  try {
    return sessionStorage.getItem(TOKEN_KEY);
  } catch (e) {
    return null;
  }
}

export function setToken(token) {
  try {
    if (token) {
      sessionStorage.setItem(TOKEN_KEY, token);
    } else {
      sessionStorage.removeItem(TOKEN_KEY);
    }
  } catch (e) {
    // storage disabled: the token is asked again next time
  }
  updateTokenButton();
}

/** Shows "Forget token" only while a token is kept. */
export function updateTokenButton() {
  document.getElementById('forget-token').hidden = !getToken();
}

let pendingTokenPrompt = null;

/** Asks for the token in a modal form; resolves to the token, or null when cancelled. */
export function askToken(message) {
  if (pendingTokenPrompt) {
    return pendingTokenPrompt;
  }
  const dialog = document.getElementById('token-dialog');
  if (typeof dialog.showModal !== 'function') {
    const typed = window.prompt(message || 'Dashboard token');
    return Promise.resolve(typed ? typed.trim() || null : null);
  }
  const form = document.getElementById('token-form');
  const input = document.getElementById('token-input');
  const cancel = document.getElementById('token-cancel');
  const msg = document.getElementById('token-message');
  msg.textContent = message || 'Actions need the dashboard\u2019s token. It is kept in this tab only (sessionStorage).';
  msg.className = message ? 'error-text' : 'muted';
  input.value = '';
  pendingTokenPrompt = new Promise(function (resolve) {
    function finish(value) {
      form.removeEventListener('submit', onSubmit);
      cancel.removeEventListener('click', onCancel);
      dialog.removeEventListener('cancel', onCancel);
      if (dialog.open) {
        dialog.close();
      }
      pendingTokenPrompt = null;
      resolve(value);
    }
    function onSubmit(ev) {
      ev.preventDefault();
      const v = input.value.trim();
      if (!v) {
        input.focus();
        return;
      }
      finish(v);
    }
    function onCancel(ev) {
      ev.preventDefault();
      finish(null);
    }
    form.addEventListener('submit', onSubmit);
    cancel.addEventListener('click', onCancel);
    dialog.addEventListener('cancel', onCancel);
    dialog.showModal();
    input.focus();
  });
  return pendingTokenPrompt;
}
