// levelgen studio: the Mario pane.
'use strict';

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
      theme: $('r-theme').value,
      check: $('r-check').checked,
      reference: $('r-reference').checked,
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
      const asked = out.asked ? (out.asked[0] === out.asked[1] ? `${out.asked[0]}` : `${out.asked[0]}:${out.asked[1]}`) : 'none';
      $('r-stats').textContent = `${out.theme} · ${out.width}x${out.height} · sections ${out.sections.join(', ')} · ` +
        `difficulty asked ${asked}, estimated ${out.estimated.toFixed(1)} · mean room rating ${out.difficulty.toFixed(2)} · ${out.report}`;
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
  ['r-seed', 'r-use-difficulty', 'r-d0', 'r-d1', 'r-reach', 'r-sequence', 'r-theme', 'r-check', 'r-reference'].forEach((id) => $(id).addEventListener('input', soon));
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
