// levelgen studio: the Search pane. A spec (docs/search.md), a small evaluation budget, and
// the MAP-Elites archive filling: the page asks /api/search for the run at growing budgets
// (each answer is the same deterministic run, further along) and draws each archive.
'use strict';

const search = {
  seq: 0,
  shown: null, // the best document whose maps are drawn, as text
  best: null, // {generator, document}
  keep() { store.set('search', $('s-spec').value); },
  // Budgets to ask for: MAP-Elites' random start, then about ten steps of whole batches.
  steps(spec, total) {
    const a = spec.algorithm || {};
    if (a.type !== 'map_elites') return [total];
    const initial = Math.min(total, a.initial || 200);
    const batch = a.batch || 40;
    const step = Math.max(batch, Math.ceil((total - initial) / 10 / batch) * batch);
    const out = [initial];
    for (let n = initial + step; n < total; n += step) out.push(n);
    if (out[out.length - 1] !== total) out.push(total);
    return out;
  },
  async run() {
    const my = ++this.seq;
    const text = $('s-spec').value;
    let spec;
    try {
      spec = JSON.parse(text);
    } catch (e) {
      showError($('s-error'), { error: 'spec: ' + e.message });
      return;
    }
    showError($('s-error'), null);
    const total = num('s-evals');
    for (const n of this.steps(spec, total)) {
      if (my !== this.seq) return;
      try {
        const out = await api('/api/search', { spec: text, evaluations: n, seed: num('s-seed') });
        if (my !== this.seq) return;
        this.show(out);
      } catch (err) {
        if (my === this.seq) showError($('s-error'), err);
        return;
      }
    }
  },
  show(out) {
    const last = out.log[out.log.length - 1] || [out.evaluations, 0, 0];
    let stats = `${out.generator}: ${out.evaluations} candidates, best fitness ${last[1].toFixed(3)}`;
    if (out.grid) {
      drawArchive($('s-grid'), out.grid);
      stats += ` · ${(100 * out.grid.coverage).toFixed(0)}% of ${out.grid.fitness.length} cells filled` +
        ` (${out.grid.x.metric} across, ${out.grid.y.metric} up)`;
    } else {
      drawArchive($('s-grid'), null);
    }
    if (out.best) {
      const means = Object.entries(out.best.means).map(([k, v]) => `${k} ${v.toFixed(3)}`).join(', ');
      stats += ` · best: ${(100 * out.best.feasible).toFixed(0)}% feasible; ${means}`;
      $('s-best').textContent = JSON.stringify(out.best.document, null, 2) +
        (out.best.args ? '\n\nflags (best.args):\n' + out.best.args : '');
      this.best = { generator: out.generator, document: out.best.document };
      const text = out.generator + JSON.stringify(out.best.document);
      if (text !== this.shown) { this.shown = text; this.drawBest(); }
    }
    $('s-stats').textContent = stats;
  },
  // The request that draws the best document with `seed` in its generator's pane, if the
  // studio can draw it (Marahel: the script; Mario and zones: their settings as overrides).
  bestRequest(seed) {
    const { generator, document: doc } = this.best;
    const sets = (obj) => Object.entries(obj || {}).map(([k, v]) => k + '=' + JSON.stringify(v));
    if (generator === 'marahel') return ['/api/marahel', { script: JSON.stringify(doc, null, 2), seed }];
    if (generator === 'mario') return ['/api/mario', { seed, set: sets(doc) }];
    if (generator === 'zones') return ['/api/zones', { seed, set: sets(doc), zone_size: 30, zones: [16, 16] }];
    return null;
  },
  // Three maps of the best document (seeds 0, 1, 2); resolves when they are drawn.
  async drawBest() {
    const my = ++this.drawSeq;
    const box = $('s-maps');
    box.textContent = '';
    $('s-open').hidden = !this.best || this.best.generator !== 'marahel';
    if (!this.best || !this.bestRequest(0)) {
      $('s-maps-note').textContent = this.best ? '(no preview for this generator: its document and flags are below)' : '';
      return false;
    }
    $('s-maps-note').textContent = '(seeds 0, 1, 2)';
    for (const seed of [0, 1, 2]) {
      const [path, body] = this.bestRequest(seed);
      let out;
      try { out = await api(path, body); } catch (err) {
        if (my === this.drawSeq) $('s-maps-note').textContent = '(' + (err.error || err) + ')';
        return false;
      }
      if (my !== this.drawSeq) return false;
      const fig = document.createElement('figure');
      const img = document.createElement('img');
      img.className = 'pixelated';
      img.alt = 'best map, seed ' + seed;
      const cap = document.createElement('figcaption');
      cap.textContent = 'seed ' + seed;
      fig.append(img, cap);
      box.appendChild(fig);
      await showPng(img, out.png);
    }
    box.dataset.drawn = this.shown;
    return true;
  },
  drawSeq: 0,
  // Opens the best script in the Marahel pane (its editor, sliders, range).
  open() {
    if (!this.best || this.best.generator !== 'marahel') return;
    $('m-script').value = JSON.stringify(this.best.document, null, 2);
    marahel.example = 'search-best';
    marahel.sliders = [];
    document.querySelector('#tabs button[data-pane=marahel]').click();
    marahel.edited();
  },
};

// Fitness per cell, viridis-like from low (dark blue) to high (yellow); empty cells white.
function drawArchive(canvas, grid) {
  const ctx = canvas.getContext('2d');
  const W = canvas.width, H = canvas.height;
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, W, H);
  if (!grid) return;
  const cols = grid.x.bins, rows = grid.y.bins;
  const vals = grid.fitness.filter((v) => v !== null);
  const lo = Math.min(...vals), hi = Math.max(...vals);
  const cw = W / cols, ch = H / rows;
  grid.fitness.forEach((v, i) => {
    if (v === null) return;
    const t = hi > lo ? (v - lo) / (hi - lo) : 1;
    const r = Math.round(68 + t * (253 - 68)), g = Math.round(1 + t * (231 - 1)), b = Math.round(84 + t * (37 - 84));
    ctx.fillStyle = `rgb(${r},${g},${b})`;
    const x = i % cols, y = Math.floor(i / cols);
    ctx.fillRect(x * cw, H - (y + 1) * ch, Math.ceil(cw), Math.ceil(ch));
  });
  ctx.strokeStyle = '#ccc';
  ctx.strokeRect(0, 0, W, H);
}

(function setupSearch() {
  studio.search = search;
  $('s-run').onclick = () => search.run();
  $('s-stop').onclick = () => { search.seq++; };
  $('s-open').onclick = () => search.open();
  $('s-spec').addEventListener('input', debounce(() => search.keep(), 300));
})();
