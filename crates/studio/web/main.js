// levelgen studio: start-up, once every pane's script is loaded: the examples, then the
// Marahel pane's first map.
'use strict';

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
  const sbox = $('s-examples');
  Object.keys(ex.search).forEach((n) => {
    const b = document.createElement('button');
    b.textContent = n;
    b.onclick = () => { $('s-spec').value = ex.search[n]; search.run(); };
    sbox.appendChild(b);
  });
  $('s-spec').value = ex.search['cave-range'];
});
