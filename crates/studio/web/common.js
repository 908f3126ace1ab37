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
