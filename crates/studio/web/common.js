// levelgen studio: shared helpers and the tabs. Plain JavaScript, no dependencies; the page
// talks to the server's JSON/PNG API (docs/studio.md). Then one file per pane, then main.js.
'use strict';

const $ = (id) => document.getElementById(id);
const studio = (window.studio = { timings: { edit: [], range: [] } });

// ---------------------------------------------------------------- shared helpers

async function api(path, body) {
  const res = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const type = res.headers.get('content-type') || '';
  if (!res.ok) {
    const err = type.includes('json') ? await res.json() : { error: await res.text() };
    err.status = res.status;
    throw err;
  }
  return type.includes('json') ? res.json() : res.blob();
}

function debounce(fn, ms) {
  let t = null;
  return (...args) => {
    clearTimeout(t);
    t = setTimeout(() => fn(...args), ms);
  };
}

// Resolves once the image shows the new picture.
function showPng(img, b64) {
  return new Promise((resolve) => {
    img.onload = () => resolve();
    img.onerror = () => resolve();
    img.src = 'data:image/png;base64,' + b64;
  });
}

function saveBlob(blob, name) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.appendChild(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}

async function download(path, body, name) {
  try {
    saveBlob(await api(path, body), name);
  } catch (e) {
    alert(e.error || String(e));
  }
}

function showError(box, err) {
  if (!err) { box.hidden = true; box.textContent = ''; return; }
  box.hidden = false;
  box.textContent = err.error || String(err);
}

function num(id) { return Number($(id).value); }

// ---------------------------------------------------------------- work kept across reloads
// Everything the designer edits is kept in the browser's localStorage under `levelgen-studio:`
// keys: the text of the editors, the Heroes template, the painted zones field, and the value
// of every control listed in PERSIST. *Forget edits* clears them.

const store = {
  prefix: 'levelgen-studio:',
  get(key) {
    try {
      const v = localStorage.getItem(this.prefix + key);
      return v === null ? null : JSON.parse(v);
    } catch (e) { return null; }
  },
  set(key, value) {
    try { localStorage.setItem(this.prefix + key, JSON.stringify(value)); } catch (e) { /* full or off: edits stay in the page */ }
  },
  clear() {
    try {
      Object.keys(localStorage).filter((k) => k.startsWith(this.prefix)).forEach((k) => localStorage.removeItem(k));
    } catch (e) { /* nothing kept */ }
  },
};
studio.store = store;

// Controls whose value (or checked state) is kept; restored before the panes first draw.
const PERSIST = [
  'm-seed', 'm-width', 'm-height', 'm-count', 'm-x', 'm-y',
  'h-seed', 'h-size',
  'z-seed', 'z-noise', 'z-distance', 'z-worley', 'z-scale', 'z-octaves', 'z-persistence',
  'z-structure', 'z-connected', 'z-reference', 'z-biomes', 'z-plain', 'z-zone-tiles', 'z-w', 'z-h',
  'z-use-fill', 'z-threshold', 'z-fill', 'z-radius', 'z-strength',
  'r-seed', 'r-theme', 'r-use-difficulty', 'r-d0', 'r-d1', 'r-length', 'r-reach', 'r-check',
  'r-reference', 'r-sequence',
  's-evals', 's-seed',
];

function restoreControls() {
  const saved = store.get('controls') || {};
  PERSIST.forEach((id) => {
    const el = $(id);
    if (!el || !(id in saved)) return;
    if (el.type === 'checkbox') el.checked = !!saved[id];
    else if (el.tagName === 'SELECT' && ![...el.options].some((o) => o.value === saved[id])) {
      el.dataset.saved = saved[id]; // options filled later (the metric lists)
    } else el.value = saved[id];
  });
  ['z-threshold', 'z-fill', 'r-length'].forEach((id) => {
    const out = $(id + '-v');
    if (out) out.textContent = id === 'r-length' ? $(id).value : Number($(id).value).toFixed(2);
  });
}

function saveControls() {
  const saved = {};
  PERSIST.forEach((id) => {
    const el = $(id);
    if (el) saved[id] = el.type === 'checkbox' ? el.checked : el.value;
  });
  store.set('controls', saved);
}

PERSIST.forEach((id) => {
  const el = $(id);
  if (el) { el.addEventListener('change', saveControls); el.addEventListener('input', saveControls); }
});
window.addEventListener('pagehide', saveControls);
restoreControls();
$('forget').onclick = () => { store.clear(); location.reload(); };

// Tabs
document.querySelectorAll('#tabs button').forEach((b) => {
  b.addEventListener('click', () => {
    document.querySelectorAll('#tabs button').forEach((x) => x.classList.toggle('active', x === b));
    document.querySelectorAll('.pane').forEach((p) =>
      p.classList.toggle('active', p.id === 'pane-' + b.dataset.pane));
    const start = { heroes: () => heroes.ensure(), zones: () => zones.ensure(), mario: () => mario.ensure() };
    if (start[b.dataset.pane]) start[b.dataset.pane]();
  });
});
