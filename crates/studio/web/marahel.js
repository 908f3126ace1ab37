// levelgen studio: the Marahel pane.
'use strict';

const marahel = {
  seq: 0,
  rangeSeq: 0,
  sliders: [], // {path, base, value, kind, key}
  request(extra) {
    const body = { script: $('m-script').value, seed: num('m-seed'), set: this.overrides() };
    // Both or neither: empty controls mean the script's own size.
    const size = this.size();
    if (size) { body.width = size[0]; body.height = size[1]; }
    return Object.assign(body, extra || {});
  },
  size() {
    const w = $('m-width').value.trim(), h = $('m-height').value.trim();
    return w && h ? [Number(w), Number(h)] : null;
  },
  // Keeps the script (and the example it came from) across reloads.
  keep() { store.set('marahel', { script: $('m-script').value, example: this.example }); },
  overrides() {
    return this.sliders.filter((s) => s.value !== s.base).map((s) => s.path + '=' + s.encode(s.value));
  },
  // Request, generation, transfer and redraw of the map; resolves when the picture shows.
  async render() {
    const my = ++this.seq;
    const t0 = performance.now();
    let out;
    try {
      out = await api('/api/marahel', this.request());
    } catch (err) {
      if (my === this.seq) this.error(err);
      return false;
    }
    if (my !== this.seq) return false;
    await showPng($('m-preview'), out.png);
    studio.timings.edit.push(performance.now() - t0);
    this.error(null);
    $('m-width').placeholder = out.width;
    $('m-height').placeholder = out.height;
    $('m-warnings').textContent = out.warnings.map((w) => 'warning: ' + w).join('\n');
    const m = out.metrics;
    $('m-metrics').textContent = `${out.width}x${out.height} · empty ${(m.empty_fraction * 100).toFixed(1)}% · ` +
      `${m.regions} regions · block entropy ${m.block_entropy.toFixed(3)} bits · ` +
      out.legend.map((l) => l.name).join(', ');
    return true;
  },
  // The expressive range of N maps; resolves when both charts are drawn.
  async range() {
    const my = ++this.rangeSeq;
    const t0 = performance.now();
    let r;
    try {
      r = await api('/api/marahel/range', this.request({ count: num('m-count'), x: $('m-x').value || undefined, y: $('m-y').value || undefined }));
    } catch (err) {
      if (my === this.rangeSeq) $('m-range-note').textContent = '(' + (err.error || err) + ')';
      return false;
    }
    if (my !== this.rangeSeq) return false;
    this.lastRange = { r, seed: num('m-seed'), request: this.request() };
    drawHeat($('m-heat'), r.heat);
    $('m-heat-x').textContent = `${r.heat.x.metric} ${fmt(r.heat.x.min)} \u2192 ${fmt(r.heat.x.max)}`;
    $('m-heat-y').textContent = `${r.heat.y.metric} ${fmt(r.heat.y.min)} \u2192 ${fmt(r.heat.y.max)}`;
    $('m-cell-maps').textContent = '';
    $('m-cell-note').textContent = '(click a cell of the heat map)';
    drawHist($('m-hist'), r.entropy);
    studio.timings.range.push(performance.now() - t0);
    $('m-range-note').textContent = `${r.count} maps, seeds ${num('m-seed')}..${num('m-seed') + r.count - 1}` +
      (r.maps_with_warnings ? `, ${r.maps_with_warnings} with warnings` : '');
    return true;
  },
  // The maps of one heat-map cell (up to 8, in seed order); resolves when they are drawn.
  async showCell(col, row) {
    const last = this.lastRange;
    if (!last) return false;
    const { r } = last;
    const cell = row * r.heat.x.bins + col;
    const seeds = [];
    r.cells.forEach((c, i) => { if (c === cell) seeds.push(last.seed + i); });
    const box = $('m-cell-maps');
    box.textContent = '';
    const lo = (a, k) => a.min + (k * (a.max - a.min)) / a.bins;
    $('m-cell-note').textContent = `${seeds.length} maps with ${r.heat.x.metric} ${fmt(lo(r.heat.x, col))}..${fmt(lo(r.heat.x, col + 1))}, ` +
      `${r.heat.y.metric} ${fmt(lo(r.heat.y, row))}..${fmt(lo(r.heat.y, row + 1))}` + (seeds.length > 8 ? ' (first 8 shown)' : '');
    const my = ++this.cellSeq;
    for (const seed of seeds.slice(0, 8)) {
      let out;
      try {
        out = await api('/api/marahel', Object.assign({}, last.request, { seed }));
      } catch (err) { return false; }
      if (my !== this.cellSeq) return false;
      const fig = document.createElement('figure');
      const img = document.createElement('img');
      img.className = 'pixelated';
      img.alt = 'map of seed ' + seed;
      const cap = document.createElement('figcaption');
      cap.textContent = 'seed ' + seed;
      fig.append(img, cap);
      fig.dataset.seed = seed;
      fig.title = 'Show this seed in the preview';
      fig.onclick = () => { $('m-seed').value = seed; saveControls(); this.changed(); };
      box.appendChild(fig);
      await showPng(img, out.png);
    }
    box.dataset.cell = cell;
    return true;
  },
  cellSeq: 0,
  error(err) {
    const box = $('m-error');
    this.markLine(err && err.line);
    if (!err) { showError(box, null); return; }
    box.hidden = false;
    box.textContent = '';
    const where = document.createElement('span');
    where.className = 'where';
    where.textContent = (err.line ? 'line ' + err.line : '') + (err.path ? (err.line ? ' · ' : '') + err.path : '');
    where.onclick = () => this.gotoLine(err.line);
    box.appendChild(where);
    const prefix = err.path ? err.path + ': ' : '';
    const text = prefix && err.error.startsWith(prefix) ? err.error.slice(prefix.length) : err.error;
    box.appendChild(document.createTextNode((where.textContent ? '\n' : '') + text));
  },
  markLine(line) {
    const n = $('m-script').value.split('\n').length;
    const g = $('m-gutter');
    g.textContent = '';
    for (let i = 1; i <= n; i++) {
      const s = document.createElement('span');
      s.textContent = i + '\n';
      if (i === line) s.className = 'bad';
      g.appendChild(s);
    }
    g.scrollTop = $('m-script').scrollTop;
  },
  gotoLine(line) {
    if (!line) return;
    const ta = $('m-script');
    const lines = ta.value.split('\n');
    const start = lines.slice(0, line - 1).reduce((a, l) => a + l.length + 1, 0);
    ta.focus();
    ta.setSelectionRange(start, start + (lines[line - 1] || '').length);
    ta.scrollTop = Math.max(0, (line - 5) * 16);
  },
  // Sliders for the numbers of the script: numeric values, and numbers inside strings
  // (`"3"`, `"50%"`, rule thresholds), each an override of its JSON path.
  buildSliders() {
    let doc;
    try { doc = JSON.parse($('m-script').value); } catch (e) { return; }
    const found = [];
    const walk = (v, path, top) => {
      if (found.length >= 40) return;
      if (Array.isArray(v)) v.forEach((x, i) => walk(x, path.concat(String(i)), top));
      else if (v && typeof v === 'object') {
        for (const k of Object.keys(v)) {
          if (path.length === 0 && (k === 'metadata' || k === 'neighborhoods' || k === 'entities')) continue;
          walk(v[k], path.concat(k), top || k);
        }
      } else if (typeof v === 'number') {
        found.push(numberSlider(path, v, v, (x) => String(x)));
      } else if (typeof v === 'string') {
        const re = /(?<![A-Za-z_\d.])-?\d+(\.\d+)?/g;
        let m;
        const matches = [];
        while ((m = re.exec(v)) !== null) matches.push(m);
        if (/^\s*\d+\s*x\s*\d+\s*$/.test(v) || /^[0-9,\s]+$/.test(v) && v.includes(',')) return;
        matches.slice(0, 3).forEach((m) => {
          const before = v.slice(0, m.index);
          const after = v.slice(m.index + m[0].length);
          const val = Number(m[0]);
          const context = ' "' + (before.length > 14 ? '…' + before.slice(-14) : before) + '[' + m[0] + ']' +
            (after.length > 8 ? after.slice(0, 8) + '…' : after) + '"';
          found.push(numberSlider(path, val, context, (x) => JSON.stringify(before + x + after),
            /%/.test(after.slice(0, 1)) ? 100 : null));
        });
      }
    };
    walk(doc, [], null);
    const old = new Map(this.sliders.map((s) => [s.key, s]));
    this.sliders = found.map((s) => {
      const o = old.get(s.key);
      if (o && o.base === s.base) s.value = o.value;
      return s;
    });
    this.drawSliders();
  },
  drawSliders() {
    const box = $('m-sliders');
    box.textContent = '';
    if (!this.sliders.length) box.textContent = 'No numbers in the script.';
    this.sliders.forEach((s) => {
      const l = document.createElement('label');
      const p = document.createElement('span');
      p.className = 'path';
      p.textContent = s.label;
      p.title = s.path + (typeof s.original === 'string' ? ' ' + s.original : '');
      const r = document.createElement('input');
      r.type = 'range'; r.min = s.min; r.max = s.max; r.step = s.step; r.value = s.value;
      const o = document.createElement('output');
      o.textContent = s.value;
      r.addEventListener('input', () => {
        s.value = Number(r.value);
        o.textContent = r.value;
        this.changed();
      });
      l.append(p, r, o);
      box.appendChild(l);
    });
  },
  bake() {
    let doc;
    try { doc = JSON.parse($('m-script').value); } catch (e) { return; }
    for (const s of this.sliders) {
      if (s.value === s.base) continue;
      let o = doc;
      const steps = s.steps;
      for (let i = 0; i < steps.length - 1; i++) o = o[steps[i]];
      o[steps[steps.length - 1]] = JSON.parse(s.encode(s.value));
    }
    $('m-script').value = JSON.stringify(doc, null, 2);
    this.sliders = [];
    this.edited();
  },
  changed: null, // set below: debounced render + range
  edited: null,
};

function numberSlider(steps, value, original, encode, max) {
  const frac = !Number.isInteger(value);
  const hi = max || (frac ? (value <= 1 ? 1 : value * 2) : Math.max(10, Math.abs(value) * 2));
  const lo = value < 0 ? -hi : 0;
  const path = '/' + steps.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
  const label = steps.join('.') + (typeof original === 'string' ? original : '');
  return {
    steps, path, label, original, encode, base: value, value,
    min: lo, max: hi, step: frac || hi <= 1 ? 0.01 : 1,
    key: path + '|' + label,
  };
}

function fmt(v) { return Math.abs(v) >= 10 ? v.toFixed(0) : v.toFixed(2); }

function drawHeat(canvas, heat) {
  const ctx = canvas.getContext('2d');
  const W = canvas.width, H = canvas.height;
  ctx.clearRect(0, 0, W, H);
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, W, H);
  let max = 1;
  heat.counts.forEach((row) => row.forEach((c) => { max = Math.max(max, c); }));
  const cw = W / heat.x.bins, ch = H / heat.y.bins;
  heat.counts.forEach((row, r) => row.forEach((c, e) => {
    if (!c) return;
    const t = Math.sqrt(c / max);
    ctx.fillStyle = `rgb(${Math.round(255 - 200 * t)},${Math.round(240 - 170 * t)},${Math.round(200 - 120 * t)})`;
    ctx.fillRect(e * cw, H - (r + 1) * ch, Math.ceil(cw), Math.ceil(ch));
  }));
  ctx.fillStyle = '#333';
  ctx.font = '10px sans-serif';
  ctx.fillText('peak ' + max, W - 48, 10);
}

function drawHist(canvas, counts) {
  const ctx = canvas.getContext('2d');
  const W = canvas.width, H = canvas.height;
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, W, H);
  const max = Math.max(1, ...counts);
  const bw = W / counts.length;
  ctx.fillStyle = '#2a6f97';
  counts.forEach((c, i) => {
    const h = (c / max) * (H - 12);
    ctx.fillRect(i * bw + 1, H - h, bw - 2, h);
  });
  ctx.fillStyle = '#333';
  ctx.font = '10px sans-serif';
  ctx.fillText(String(max), 2, 10);
}

(function setupMarahel() {
  const renderSoon = debounce(() => marahel.render(), 120);
  const rangeSoon = debounce(() => marahel.range(), 450);
  marahel.changed = () => { renderSoon(); rangeSoon(); };
  marahel.edited = () => { marahel.keep(); marahel.buildSliders(); marahel.markLine(null); marahel.changed(); };
  studio.marahel = marahel;
  $('m-script').addEventListener('input', () => marahel.edited());
  $('m-script').addEventListener('scroll', () => { $('m-gutter').scrollTop = $('m-script').scrollTop; });
  ['m-seed', 'm-width', 'm-height', 'm-count'].forEach((id) => $(id).addEventListener('input', () => marahel.changed()));
  ['m-x', 'm-y'].forEach((id) => $(id).addEventListener('change', () => marahel.range()));
  $('m-heat').addEventListener('click', (ev) => {
    const last = marahel.lastRange;
    if (!last) return;
    const c = $('m-heat');
    const rect = c.getBoundingClientRect();
    const col = Math.min(last.r.heat.x.bins - 1, Math.floor(((ev.clientX - rect.left) / rect.width) * last.r.heat.x.bins));
    const row = Math.min(last.r.heat.y.bins - 1, Math.floor(((rect.bottom - ev.clientY) / rect.height) * last.r.heat.y.bins));
    marahel.showCell(col, row);
  });
  $('m-bake').onclick = () => marahel.bake();
  $('m-reset-sliders').onclick = () => { marahel.sliders.forEach((s) => { s.value = s.base; }); marahel.drawSliders(); marahel.changed(); };
  const name = () => marahel.example || 'marahel';
  $('m-dl-png').onclick = () => {
    const side = Math.max(...(marahel.size() || [Number($('m-width').placeholder) || 100, Number($('m-height').placeholder) || 100]));
    const scale = Math.max(1, Math.min(8, Math.floor(4096 / side)));
    download('/api/marahel', marahel.request({ format: 'png', scale }), name() + '.png');
  };
  $('m-dl-tmx').onclick = () => download('/api/marahel', marahel.request({ format: 'tmx' }), name() + '.tmx');
  $('m-dl-tileset').onclick = () => download('/api/marahel', marahel.request({ format: 'tileset' }), 'tileset.png');
  $('m-dl-json').onclick = () => download('/api/marahel', marahel.request({ format: 'map_json' }), name() + '-map.json');
  $('m-dl-script').onclick = () => saveBlob(new Blob([$('m-script').value], { type: 'application/json' }), name() + '.json');
})();
