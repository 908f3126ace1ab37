// levelgen studio: start-up, once every pane's script is loaded: the metric lists and the
// examples, then the Marahel pane's first map: the script kept from the last visit, else the
// cave example.
'use strict';

function fillMetrics(list) {
  [['m-x', 'empty_fraction'], ['m-y', 'regions']].forEach(([id, first]) => {
    const sel = $(id);
    list.forEach((m) => {
      const o = document.createElement('option');
      o.value = m.name;
      o.textContent = m.name.replace(/_/g, ' ');
      o.title = m.description;
      sel.appendChild(o);
    });
    const saved = sel.dataset.saved;
    sel.value = saved && list.some((m) => m.name === saved) ? saved : first;
  });
}

Promise.all([
  fetch('/api/metrics').then((r) => r.json()),
  fetch('/api/examples').then((r) => r.json()),
]).then(([metrics, ex]) => {
  fillMetrics(metrics);
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
  const kept = store.get('marahel');
  if (kept && typeof kept.script === 'string') {
    marahel.example = kept.example || 'marahel';
    $('m-script').value = kept.script;
  } else {
    marahel.example = 'cave';
    $('m-script').value = ex.marahel.cave;
  }
  marahel.edited();
  heroes.examples(ex.heroes);
  const sbox = $('s-examples');
  Object.keys(ex.search).forEach((n) => {
    const b = document.createElement('button');
    b.textContent = n;
    b.onclick = () => { $('s-spec').value = ex.search[n]; search.keep(); search.run(); };
    sbox.appendChild(b);
  });
  const spec = store.get('search');
  $('s-spec').value = typeof spec === 'string' ? spec : ex.search['cave-range'];
});
