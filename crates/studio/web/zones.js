// levelgen studio: the Zones pane.
'use strict';

const zones = {
  field: null, // base noise, 0..255
  offsets: null, // Int8Array, hundredths
  fw: 0,
  fh: 0,
  atlas: null,
  seq: 0,
  started: false,
  ensure() {
    if (this.started) return;
    this.started = true;
    const [w, h] = this.size();
    const kept = store.get('zones-offsets');
    this.reset();
    if (Array.isArray(kept) && kept.length === w * 6 * h * 6) this.offsets.set(kept);
  },
  // Keeps the painted field across reloads.
  keep() { store.set('zones-offsets', Array.from(this.offsets)); },
  size() { return [Math.max(1, Math.min(64, num('z-w'))), Math.max(1, Math.min(64, num('z-h')))]; },
  reset() {
    const [w, h] = this.size();
    this.fw = w * 6; this.fh = h * 6;
    this.offsets = new Int8Array(this.fw * this.fh);
    this.field = null;
    this.render();
  },
  // The options of `levelgen zones`; the preview draws zones at 30 px, downloads at the CLI's 60.
  request(extra) {
    const body = {
      seed: num('z-seed'), noise: $('z-noise').value, distance: $('z-distance').value,
      worley: $('z-worley').value, octaves: num('z-octaves'), persistence: num('z-persistence'),
      reference: $('z-reference').checked, connected: $('z-connected').value,
      biomes: $('z-biomes').checked, plain: $('z-plain').checked,
      zone_tiles: $('z-zone-tiles').checked,
      zones: this.size(), zone_size: 30, offsets: Array.from(this.offsets),
    };
    if ($('z-scale').value.trim()) body.scale = num('z-scale');
    if ($('z-structure').value.trim()) body.structure = num('z-structure');
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
        ($('z-connected').value !== 'off' ? `connected (${$('z-connected').value}) · ` : '') +
        ($('z-biomes').checked ? 'biomes · ' : '') +
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
  c.addEventListener('pointerup', () => { painting = false; zones.keep(); });
  ['z-seed', 'z-noise', 'z-distance', 'z-worley', 'z-scale', 'z-octaves', 'z-persistence', 'z-structure',
    'z-reference', 'z-connected', 'z-biomes', 'z-plain', 'z-zone-tiles', 'z-use-fill']
    .forEach((id) => $(id).addEventListener('change', () => zones.renderSoon()));
  ['z-w', 'z-h'].forEach((id) => $(id).addEventListener('change', () => { zones.reset(); zones.keep(); }));
  [['z-threshold', 'z-threshold-v'], ['z-fill', 'z-fill-v']].forEach(([id, out]) => $(id).addEventListener('input', () => {
    $(out).textContent = Number($(id).value).toFixed(2);
    zones.renderSoon();
  }));
  $('z-clear').onclick = () => { zones.offsets.fill(0); zones.keep(); zones.drawField(); zones.renderSoon(); };
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
  $('z-dl-png').onclick = () => download('/api/zones', zones.request({ format: 'png', zone_size: 60 }), 'zones.png');
  // The TMX and the tileset image it refers to, as `levelgen zones --out zones.tmx` writes them.
  $('z-dl-tmx').onclick = async () => {
    await download('/api/zones', zones.request({ format: 'tmx', zone_size: 60 }), 'zones.tmx');
    await download('/api/zones', zones.request({ format: 'tileset', zone_size: 60 }), 'zones_tiles.png');
  };
  $('z-dl-states').onclick = () => download('/api/zones', zones.request({ format: 'states' }), 'zones-states.json');
})();
