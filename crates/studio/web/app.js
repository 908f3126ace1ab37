// levelgen studio: the page. Plain JavaScript, no dependencies; talks to the server's
// JSON/PNG API (see docs/studio.md). One section per pane.
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

// ---------------------------------------------------------------- Marahel pane

const marahel = {
  seq: 0,
  rangeSeq: 0,
  sliders: [], // {path, base, value, kind, key}
  request(extra) {
    const body = {
      script: $('m-script').value,
      seed: num('m-seed'),
      width: num('m-width'),
      height: num('m-height'),
      set: this.overrides(),
    };
    return Object.assign(body, extra || {});
  },
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
      r = await api('/api/marahel/range', this.request({ count: num('m-count') }));
    } catch (err) {
      if (my === this.rangeSeq) $('m-range-note').textContent = '(' + (err.error || err) + ')';
      return false;
    }
    if (my !== this.rangeSeq) return false;
    drawHeat($('m-heat'), r.heat);
    drawHist($('m-hist'), r.entropy);
    studio.timings.range.push(performance.now() - t0);
    $('m-range-note').textContent = `${r.count} maps, seeds ${num('m-seed')}..${num('m-seed') + r.count - 1}, ` +
      `regions 0..${r.heat.regions_max}` + (r.maps_with_warnings ? `, ${r.maps_with_warnings} with warnings` : '');
    return true;
  },
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
    box.appendChild(document.createTextNode((where.textContent ? '\n' : '') + err.error));
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
          found.push(numberSlider(path, val, v, (x) => JSON.stringify(before + x + after),
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
      p.title = s.path + ' = ' + s.original;
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
  const label = steps.join('.') + (typeof original === 'string' ? ' "' + original + '"' : '');
  return {
    steps, path, label, original, encode, base: value, value,
    min: lo, max: hi, step: frac || hi <= 1 ? 0.01 : 1,
    key: path + '|' + label,
  };
}

function drawHeat(canvas, heat) {
  const ctx = canvas.getContext('2d');
  const W = canvas.width, H = canvas.height;
  ctx.clearRect(0, 0, W, H);
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, W, H);
  let max = 1;
  heat.counts.forEach((row) => row.forEach((c) => { max = Math.max(max, c); }));
  const cw = W / heat.empty_bins, ch = H / heat.region_bins;
  heat.counts.forEach((row, r) => row.forEach((c, e) => {
    if (!c) return;
    const t = Math.sqrt(c / max);
    ctx.fillStyle = `rgb(${Math.round(255 - 200 * t)},${Math.round(240 - 170 * t)},${Math.round(200 - 120 * t)})`;
    ctx.fillRect(e * cw, H - (r + 1) * ch, Math.ceil(cw), Math.ceil(ch));
  }));
  ctx.fillStyle = '#333';
  ctx.font = '10px sans-serif';
  ctx.fillText(String(heat.regions_max), 2, 10);
  ctx.fillText('0', 2, H - 2);
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
  marahel.edited = () => { marahel.buildSliders(); marahel.markLine(null); marahel.changed(); };
  studio.marahel = marahel;
  $('m-script').addEventListener('input', () => marahel.edited());
  $('m-script').addEventListener('scroll', () => { $('m-gutter').scrollTop = $('m-script').scrollTop; });
  ['m-seed', 'm-width', 'm-height', 'm-count'].forEach((id) => $(id).addEventListener('input', () => marahel.changed()));
  $('m-bake').onclick = () => marahel.bake();
  $('m-reset-sliders').onclick = () => { marahel.sliders.forEach((s) => { s.value = s.base; }); marahel.drawSliders(); marahel.changed(); };
  const name = () => marahel.example || 'marahel';
  $('m-dl-png').onclick = () => {
    const side = Math.max(num('m-width'), num('m-height'));
    const scale = Math.max(1, Math.min(8, Math.floor(4096 / side)));
    download('/api/marahel', marahel.request({ format: 'png', scale }), name() + '.png');
  };
  $('m-dl-tmx').onclick = () => download('/api/marahel', marahel.request({ format: 'tmx' }), name() + '.tmx');
  $('m-dl-tileset').onclick = () => download('/api/marahel', marahel.request({ format: 'tileset' }), 'tileset.png');
  $('m-dl-json').onclick = () => download('/api/marahel', marahel.request({ format: 'map_json' }), name() + '-map.json');
  $('m-dl-script').onclick = () => saveBlob(new Blob([$('m-script').value], { type: 'application/json' }), name() + '.json');
  fetch('/api/examples').then((r) => r.json()).then((ex) => {
    studio.examples = ex;
    const box = $('m-examples');
    Object.keys(ex.marahel).forEach((n) => {
      const b = document.createElement('button');
      b.textContent = n;
      b.dataset.example = n;
      b.onclick = () => {
        marahel.example = n;
        $('m-script').value = ex.marahel[n];
        marahel.sliders = [];
        marahel.edited();
      };
      box.appendChild(b);
    });
    marahel.example = 'cave';
    $('m-script').value = ex.marahel.cave;
    marahel.edited();
    heroes.examples(ex.heroes);
  });
})();

// ---------------------------------------------------------------- Heroes pane

const SURFACES = ['SAND', 'DIRT', 'GRASS', 'SWAMP', 'LAVA', 'WASTELAND', 'DESERT', 'SNOW', 'NDESERT', 'WATER', 'RANDOM'];
const SURFACE_COLOR = { WATER: '#081c80', SAND: '#d6b694', DIRT: '#633008', GRASS: '#186110', SWAMP: '#2c5030',
  LAVA: '#505050', WASTELAND: '#a55510', DESERT: '#e0c060', SNOW: '#c8d8e8', NDESERT: '#b09040', RANDOM: '#888' };
const KINDS = ['PLAYER_START', 'TREASURE', 'JUNCTION'];
const LINKS = ['REGULAR', 'ROAD', 'PORTAL'];

const heroes = {
  zones: [], // template zones (index = position) with editor-only x, y
  connections: [],
  name: 'studio',
  selected: null, // {zone: i} or {link: i}
  connecting: false,
  seq: 0,
  started: false,
  examples(list) {
    this.list = list;
    const box = $('h-examples');
    Object.keys(list).forEach((n) => {
      const b = document.createElement('button');
      b.textContent = n;
      b.onclick = () => this.load(list[n]);
      box.appendChild(b);
    });
  },
  ensure() {
    if (!this.started && this.list) { this.started = true; this.load(this.list.duel); }
  },
  load(text) {
    let t;
    try { t = typeof text === 'string' ? JSON.parse(text) : text; } catch (e) { showError($('h-error'), { error: 'not JSON: ' + e.message }); return; }
    const zones = (t.zones || []).slice().sort((a, b) => a.index - b.index);
    const pos = new Map(zones.map((z, i) => [z.index, i]));
    const n = zones.length;
    this.name = t.name || 'template';
    this.zones = zones.map((z, i) => Object.assign({}, z, {
      x: 260 + 150 * Math.cos((2 * Math.PI * i) / Math.max(1, n) - Math.PI / 2),
      y: 210 + 150 * Math.sin((2 * Math.PI * i) / Math.max(1, n) - Math.PI / 2),
    }));
    this.connections = (t.connections || []).map((c) => Object.assign({}, c, {
      first: pos.has(c.first) ? pos.get(c.first) : c.first,
      second: pos.has(c.second) ? pos.get(c.second) : c.second,
    }));
    this.selected = null;
    this.changed();
  },
  template() {
    return {
      name: this.name,
      zones: this.zones.map((z, i) => {
        const out = Object.assign({}, z, { index: i });
        delete out.x; delete out.y;
        return out;
      }),
      connections: this.connections.map((c) => Object.assign({}, c)),
    };
  },
  request(extra) {
    return Object.assign({ template: this.template(), seed: num('h-seed'), size: num('h-size') }, extra || {});
  },
  async render() {
    const my = ++this.seq;
    try {
      const out = await api('/api/heroes', this.request());
      if (my !== this.seq) return false;
      await showPng($('h-preview'), out.png);
      showError($('h-error'), null);
      $('h-stats').textContent = `${out.size}x${out.size} · ${out.zones} zones · ${out.objects} objects · ` +
        `area error ${(out.max_area_error * 100).toFixed(1)}% · ${out.forced_portals} forced portals`;
      return true;
    } catch (err) {
      if (my === this.seq) showError($('h-error'), err);
      return false;
    }
  },
  changed() { this.draw(); this.form(); this.renderSoon(); },
  addZone() {
    const from = this.selected && this.selected.zone !== undefined ? this.selected.zone : null;
    const z = { surface: 'GRASS', size: 20, index: this.zones.length, kind: 'TREASURE', richness: 14,
      x: 60 + Math.random() * 400, y: 60 + Math.random() * 300 };
    if (from !== null) { z.x = Math.min(490, this.zones[from].x + 70); z.y = Math.min(390, this.zones[from].y + 50); }
    this.zones.push(z);
    const i = this.zones.length - 1;
    const to = from !== null ? from : (i > 0 ? 0 : null);
    if (to !== null) this.connections.push({ first: to, second: i });
    this.selected = { zone: i };
    this.changed();
  },
  remove() {
    const s = this.selected;
    if (!s) return;
    if (s.link !== undefined) this.connections.splice(s.link, 1);
    else {
      const i = s.zone;
      this.zones.splice(i, 1);
      this.connections = this.connections.filter((c) => c.first !== i && c.second !== i)
        .map((c) => Object.assign(c, { first: c.first > i ? c.first - 1 : c.first, second: c.second > i ? c.second - 1 : c.second }));
    }
    this.selected = null;
    this.changed();
  },
  radius(z) { return 14 + Math.sqrt(Math.max(1, z.size)) * 3; },
  draw() {
    const svg = $('h-graph');
    const NS = 'http://www.w3.org/2000/svg';
    svg.textContent = '';
    this.connections.forEach((c, i) => {
      const a = this.zones[c.first], b = this.zones[c.second];
      if (!a || !b) return;
      const l = document.createElementNS(NS, 'line');
      l.setAttribute('x1', a.x); l.setAttribute('y1', a.y); l.setAttribute('x2', b.x); l.setAttribute('y2', b.y);
      l.setAttribute('class', (c.type || 'REGULAR') + (this.selected && this.selected.link === i ? ' selected' : ''));
      l.addEventListener('pointerdown', (e) => { e.stopPropagation(); this.selected = { link: i }; this.draw(); this.form(); });
      svg.appendChild(l);
      if (c.guardLevel) {
        const t = document.createElementNS(NS, 'text');
        t.setAttribute('x', (a.x + b.x) / 2 + 4); t.setAttribute('y', (a.y + b.y) / 2 - 4);
        t.textContent = 'g' + c.guardLevel.min + (c.guardLevel.max !== c.guardLevel.min ? '-' + c.guardLevel.max : '');
        svg.appendChild(t);
      }
    });
    this.zones.forEach((z, i) => {
      const g = document.createElementNS(NS, 'g');
      g.setAttribute('class', 'zone' + (this.selected && this.selected.zone === i ? ' selected' : ''));
      g.dataset.zone = i;
      const c = document.createElementNS(NS, 'circle');
      c.setAttribute('cx', z.x); c.setAttribute('cy', z.y); c.setAttribute('r', this.radius(z));
      c.setAttribute('fill', SURFACE_COLOR[z.surface] || '#888');
      c.setAttribute('stroke', z.kind === 'PLAYER_START' ? '#f5c400' : '#222');
      c.setAttribute('stroke-width', z.kind === 'PLAYER_START' ? 4 : 1.5);
      const t = document.createElementNS(NS, 'text');
      t.setAttribute('x', z.x); t.setAttribute('y', z.y + 4); t.setAttribute('text-anchor', 'middle');
      const castles = (z.castles || []).length;
      t.textContent = i + (castles ? ' ♜' + castles : '') + (z.kind === 'JUNCTION' ? ' J' : '');
      g.append(c, t);
      g.addEventListener('pointerdown', (e) => this.grab(e, i));
      svg.appendChild(g);
    });
  },
  grab(e, i) {
    e.stopPropagation();
    if (this.connecting && this.selected && this.selected.zone !== undefined && this.selected.zone !== i) {
      this.connections.push({ first: this.selected.zone, second: i });
      this.connecting = false;
      $('h-connect').classList.remove('on');
      this.selected = { link: this.connections.length - 1 };
      this.changed();
      return;
    }
    this.selected = { zone: i };
    const svg = $('h-graph');
    const box = svg.getBoundingClientRect();
    const z = this.zones[i];
    const dx = e.clientX - box.left - z.x, dy = e.clientY - box.top - z.y;
    let moved = false;
    const move = (ev) => {
      moved = true;
      z.x = Math.max(10, Math.min(510, ev.clientX - box.left - dx));
      z.y = Math.max(10, Math.min(410, ev.clientY - box.top - dy));
      this.draw();
    };
    const up = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      if (!moved) this.draw();
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
    this.draw();
    this.form();
  },
  form() {
    const f = $('h-form');
    f.textContent = '';
    const s = this.selected;
    const field = (label, input) => {
      const l = document.createElement('label');
      l.textContent = label;
      f.append(l, input);
    };
    const select = (options, value, set) => {
      const el = document.createElement('select');
      options.forEach((o) => { const op = document.createElement('option'); op.textContent = o; el.appendChild(op); });
      el.value = value;
      el.onchange = () => { set(el.value); this.changed(); };
      return el;
    };
    const number = (value, min, max, set) => {
      const el = document.createElement('input');
      el.type = 'number'; el.min = min; el.max = max; el.value = value;
      el.onchange = () => { set(Number(el.value)); this.changed(); };
      return el;
    };
    const h = document.createElement('h4');
    f.appendChild(h);
    if (!s) { h.textContent = `Template "${this.name}": ${this.zones.length} zones, ${this.connections.length} connections`; return; }
    if (s.zone !== undefined) {
      const z = this.zones[s.zone];
      h.textContent = 'Zone ' + s.zone;
      field('Surface', select(SURFACES, z.surface, (v) => { z.surface = v; }));
      field('Kind', select(KINDS, z.kind || 'TREASURE', (v) => { z.kind = v; }));
      field('Size (area)', number(z.size, 1, 1000, (v) => { z.size = v; }));
      field('Richness', number(z.richness === undefined ? 14 : z.richness, 0, 200, (v) => { z.richness = v; }));
      field('Castles', number((z.castles || []).length, 0, 8, (v) => {
        const c = (z.castles || []).slice(0, v);
        while (c.length < v) c.push({});
        z.castles = c;
        z.castlesNum = { min: 0, max: 0 };
      }));
      const mines = z.minesNum ? z.minesNum.max : 1;
      field('Mines', number(mines, 0, 16, (v) => { z.minesNum = { min: v, max: v }; }));
    } else {
      const c = this.connections[s.link];
      h.textContent = `Connection ${c.first} – ${c.second}`;
      field('Type', select(LINKS, c.type || 'REGULAR', (v) => { c.type = v; }));
      const g = c.guardLevel || { min: -1, max: -1 };
      field('Guard min', number(g.min, -2, 6, (v) => { c.guardLevel = { min: v, max: Math.max(v, (c.guardLevel || g).max) }; }));
      field('Guard max', number(g.max, -2, 6, (v) => { c.guardLevel = { min: Math.min(v, (c.guardLevel || g).min), max: v }; }));
    }
  },
};

(function setupHeroes() {
  studio.heroes = heroes;
  heroes.renderSoon = debounce(() => heroes.render(), 150);
  $('h-add').onclick = () => heroes.addZone();
  $('h-remove').onclick = () => heroes.remove();
  $('h-connect').onclick = () => {
    heroes.connecting = !heroes.connecting;
    $('h-connect').classList.toggle('on', heroes.connecting);
    $('h-hint').textContent = heroes.connecting ? 'Select a zone, then click the zone to connect it to.' : 'Drag zones to move them; click one to edit it.';
  };
  $('h-graph').addEventListener('pointerdown', () => { heroes.selected = null; heroes.draw(); heroes.form(); });
  ['h-seed', 'h-size'].forEach((id) => $(id).addEventListener('change', () => heroes.renderSoon()));
  $('h-load').addEventListener('change', async (e) => {
    const f = e.target.files[0];
    if (f) heroes.load(await f.text());
  });
  $('h-dl-template').onclick = () => saveBlob(new Blob([JSON.stringify(heroes.template(), null, 2)], { type: 'application/json' }), heroes.name + '.json');
  $('h-dl-hmm').onclick = () => download('/api/heroes', heroes.request({ format: 'hmm' }), heroes.name + '.hmm');
  $('h-dl-png').onclick = () => download('/api/heroes', heroes.request({ format: 'png' }), heroes.name + '.png');
})();

// ---------------------------------------------------------------- Zones pane

const zones = {
  field: null, // base noise, 0..255
  offsets: null, // Int8Array, hundredths
  fw: 0,
  fh: 0,
  atlas: null,
  seq: 0,
  started: false,
  ensure() { if (!this.started) { this.started = true; this.reset(); } },
  size() { return [Math.max(1, Math.min(64, num('z-w'))), Math.max(1, Math.min(64, num('z-h')))]; },
  reset() {
    const [w, h] = this.size();
    this.fw = w * 6; this.fh = h * 6;
    this.offsets = new Int8Array(this.fw * this.fh);
    this.field = null;
    this.render();
  },
  request(extra) {
    const body = {
      seed: num('z-seed'), noise: $('z-noise').value, seamless: $('z-seamless').checked,
      zones: this.size(), offsets: Array.from(this.offsets),
    };
    if ($('z-use-fill').checked) body.fill = num('z-fill'); else body.threshold = num('z-threshold');
    if (this.atlas) body.atlas = this.atlas;
    return Object.assign(body, extra || {});
  },
  async render() {
    const my = ++this.seq;
    try {
      const out = await api('/api/zones', this.request());
      if (my !== this.seq) return false;
      this.field = out.noise;
      this.threshold = out.threshold;
      this.drawField();
      await showPng($('z-preview'), out.png);
      showError($('z-error'), null);
      const on = out.states.reduce((a, s) => a + bitcount(s), 0);
      $('z-stats').textContent = `${out.zones_wide}x${out.zones_high} zones · threshold ${out.threshold.toFixed(3)} · ` +
        `${((100 * on) / (9 * out.states.length)).toFixed(1)}% cells on`;
      studio.zonesStates = out.states;
      return true;
    } catch (err) {
      if (my === this.seq) showError($('z-error'), err);
      return false;
    }
  },
  drawField() {
    if (!this.field) return;
    const c = $('z-noise-canvas');
    if (c.width !== this.fw || c.height !== this.fh) { c.width = this.fw; c.height = this.fh; }
    const ctx = c.getContext('2d');
    const img = ctx.createImageData(this.fw, this.fh);
    const t = (this.threshold || 0.45) * 255;
    for (let i = 0; i < this.fw * this.fh; i++) {
      const o = this.offsets[i] * 2.55;
      const v = Math.max(0, Math.min(255, this.field[i] + o));
      const above = v > t;
      img.data[4 * i] = above ? v : v * 0.75;
      img.data[4 * i + 1] = above ? v : v * 0.8;
      img.data[4 * i + 2] = above ? Math.min(255, v + 40) : v;
      if (this.offsets[i] > 0) img.data[4 * i] = Math.min(255, img.data[4 * i] + this.offsets[i]);
      if (this.offsets[i] < 0) img.data[4 * i + 2] = Math.min(255, img.data[4 * i + 2] - this.offsets[i]);
      img.data[4 * i + 3] = 255;
    }
    ctx.putImageData(img, 0, 0);
  },
  paintAt(ev, sign) {
    const c = $('z-noise-canvas');
    const r = c.getBoundingClientRect();
    const fx = ((ev.clientX - r.left) / r.width) * this.fw;
    const fy = ((ev.clientY - r.top) / r.height) * this.fh;
    const rad = num('z-radius');
    const strength = num('z-strength');
    for (let y = Math.floor(fy - rad); y <= fy + rad; y++) {
      for (let x = Math.floor(fx - rad); x <= fx + rad; x++) {
        if (x < 0 || y < 0 || x >= this.fw || y >= this.fh) continue;
        const d = Math.hypot(x + 0.5 - fx, y + 0.5 - fy);
        if (d > rad) continue;
        const i = y * this.fw + x;
        const add = Math.round(sign * strength * (1 - d / (rad + 1)));
        this.offsets[i] = Math.max(-100, Math.min(100, this.offsets[i] + add));
      }
    }
    this.drawField();
    this.renderSoon();
  },
};

function bitcount(s) { let n = 0; while (s) { n += s & 1; s >>= 1; } return n; }

(function setupZones() {
  studio.zones = zones;
  zones.renderSoon = debounce(() => zones.render(), 60);
  const c = $('z-noise-canvas');
  let painting = false;
  const sign = (ev) => (ev.shiftKey ? -1 : 1) * Number(document.querySelector('input[name=z-mode]:checked').value);
  c.addEventListener('pointerdown', (ev) => { painting = true; c.setPointerCapture(ev.pointerId); zones.paintAt(ev, sign(ev)); });
  c.addEventListener('pointermove', (ev) => { if (painting) zones.paintAt(ev, sign(ev)); });
  c.addEventListener('pointerup', () => { painting = false; });
  ['z-seed', 'z-noise', 'z-seamless', 'z-use-fill'].forEach((id) => $(id).addEventListener('change', () => zones.renderSoon()));
  ['z-w', 'z-h'].forEach((id) => $(id).addEventListener('change', () => zones.reset()));
  [['z-threshold', 'z-threshold-v'], ['z-fill', 'z-fill-v']].forEach(([id, out]) => $(id).addEventListener('input', () => {
    $(out).textContent = Number($(id).value).toFixed(2);
    zones.renderSoon();
  }));
  $('z-clear').onclick = () => { zones.offsets.fill(0); zones.drawField(); zones.renderSoon(); };
  $('z-atlas').addEventListener('change', async (e) => {
    const f = e.target.files[0];
    if (!f) return;
    const bytes = new Uint8Array(await f.arrayBuffer());
    let s = '';
    for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    zones.atlas = btoa(s);
    zones.render();
  });
  $('z-atlas-clear').onclick = () => { zones.atlas = null; $('z-atlas').value = ''; zones.render(); };
  $('z-dl-png').onclick = () => download('/api/zones', zones.request({ format: 'png' }), 'zones.png');
  $('z-dl-tmx').onclick = () => download('/api/zones', zones.request({ format: 'tmx' }), 'zones.tmx');
  $('z-dl-states').onclick = () => download('/api/zones', zones.request({ format: 'states' }), 'zones-states.json');
})();

// ---------------------------------------------------------------- Mario pane

const mario = {
  seq: 0,
  started: false,
  ensure() { if (!this.started) { this.started = true; this.render(); } },
  request(extra) {
    const body = {
      seed: num('r-seed'),
      length: num('r-length'),
      difficulty: $('r-use-difficulty').checked ? [num('r-d0'), num('r-d1')] : null,
      sequence: $('r-sequence').value.split(',').map((s) => s.trim()).filter((s) => s),
      reach: $('r-reach').checked,
    };
    return Object.assign(body, extra || {});
  },
  async render() {
    const my = ++this.seq;
    try {
      const out = await api('/api/mario', this.request());
      if (my !== this.seq) return false;
      await showPng($('r-preview'), out.png);
      showError($('r-error'), null);
      $('r-text').textContent = out.text;
      $('r-stats').textContent = `${out.width}x${out.height} · sections ${out.sections.join(', ')} · ` +
        `mean difficulty ${out.difficulty.toFixed(2)} · ${out.report}`;
      return true;
    } catch (err) {
      if (my === this.seq) showError($('r-error'), err);
      return false;
    }
  },
};

(function setupMario() {
  studio.mario = mario;
  const soon = debounce(() => mario.render(), 150);
  ['r-seed', 'r-use-difficulty', 'r-d0', 'r-d1', 'r-reach', 'r-sequence'].forEach((id) => $(id).addEventListener('input', soon));
  $('r-length').addEventListener('input', () => { $('r-length-v').textContent = $('r-length').value; soon(); });
  document.querySelectorAll('.r-add').forEach((b) => {
    b.onclick = () => {
      const v = $('r-sequence').value.trim();
      $('r-sequence').value = (v ? v + ',' : '') + b.dataset.role;
      soon();
    };
  });
  $('r-pop').onclick = () => {
    const parts = $('r-sequence').value.split(',').filter((s) => s.trim());
    parts.pop();
    $('r-sequence').value = parts.join(',');
    soon();
  };
  $('r-dl-text').onclick = () => download('/api/mario', mario.request({ format: 'text' }), 'mario-level.txt');
  $('r-dl-png').onclick = () => download('/api/mario', mario.request({ format: 'png' }), 'mario-level.png');
})();
