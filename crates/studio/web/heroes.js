// levelgen studio: the Heroes pane.
'use strict';

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
    if (this.started || !this.list) return;
    this.started = true;
    const kept = store.get('heroes');
    if (kept && Array.isArray(kept.zones) && Array.isArray(kept.connections)) {
      this.name = kept.name || 'template';
      this.zones = kept.zones;
      this.connections = kept.connections;
      this.changed();
    } else {
      this.load(this.list.duel);
    }
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
  changed() {
    this.draw(); this.form(); this.renderSoon();
    store.set('heroes', { name: this.name, zones: this.zones, connections: this.connections });
  },
  addZone() {
    const from = this.selected && this.selected.zone !== undefined ? this.selected.zone : null;
    const z = { surface: 'GRASS', size: 20, index: this.zones.length, kind: 'TREASURE', richness: 14,
      x: 0, y: 0 };
    Object.assign(z, this.freeSpot());
    this.zones.push(z);
    const i = this.zones.length - 1;
    const to = from !== null ? from : (i > 0 ? 0 : null);
    if (to !== null) this.connections.push({ first: to, second: i });
    this.selected = { zone: i };
    this.changed();
  },
  // The point of a fixed grid farthest from every zone, so a new zone does not cover another.
  freeSpot() {
    let best = { x: 260, y: 210 }, bestD = -1;
    for (let y = 50; y <= 370; y += 20) {
      for (let x = 50; x <= 470; x += 20) {
        const d = Math.min(Infinity, ...this.zones.map((o) => Math.hypot(o.x - x, o.y - y) - this.radius(o)));
        if (d > bestD) { bestD = d; best = { x, y }; }
      }
    }
    return best;
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
      options.forEach((o) => { const op = document.createElement('option'); op.value = o; op.textContent = o; el.appendChild(op); });
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
