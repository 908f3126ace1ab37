// Times the reference Marahel (the unmodified `bin/Marahel.js` of amidos2006/marahel) in
// stream mode (`initialize` once, `generate(true, 1)`, then `generate(true)`), after 10
// warm-up maps, the time of `generate()` only, N maps. The reference is not part of this
// repository: pass the path of its `bin/Marahel.js`.
//
//   node bench.js MARAHEL_JS SCRIPT.json [--maps N] [--size WxH] [--ours TABLE]
//
// It prints the median time over every attempt (maps that throw included) and over the maps
// the reference finishes (`ms/map`), split into finished maps that still hold
// unknown cells and complete ones, and the mean time per attempt and per finished map.
// `--ours TABLE` (the output of `cargo run --release -p marahel --example per_size`) compares
// each finished map with our mean time at the same size: the median of those ratios and the
// ratio of the sums.
'use strict';
const fs = require('fs');
const vm = require('vm');

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
if (args.length < 2) {
  console.error('usage: node bench.js MARAHEL_JS SCRIPT.json [--maps N] [--size WxH] [--ours TABLE]');
  process.exit(2);
}
vm.runInThisContext(fs.readFileSync(args[0], 'utf8'));
const script = JSON.parse(fs.readFileSync(args[1], 'utf8'));
const maps = +opt('--maps', 1000);
const size = opt('--size', null);
if (size) {
  script.metadata.min = size;
  script.metadata.max = size;
}

/* global Marahel */
Marahel.initialize(script);
const attempt = (seed) => {
  const start = process.hrtime.bigint();
  let map = null;
  try {
    map = seed === undefined ? Marahel.generate(true) : Marahel.generate(true, seed);
  } catch (e) {
    map = null;
  }
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, map };
};
attempt(1);
for (let i = 0; i < 10; i++) attempt();

const all = [];
const finished = [];
for (let i = 0; i < maps; i++) {
  const { ms, map } = attempt();
  all.push(ms);
  if (map) {
    const unknown = map.some((row) => row.includes(-1));
    finished.push({ ms, w: map[0].length, h: map.length, unknown });
  }
}

const median = (xs) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
};
const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const ms = (x) => `${x.toFixed(3)} ms`;
const done = finished.map((f) => f.ms);
console.log(`${args[1].split('/').pop()}: ${maps} attempts, ${maps - finished.length} threw, ` +
  `${finished.filter((f) => f.unknown).length} finished with unknown cells, ` +
  `${finished.filter((f) => !f.unknown).length} complete`);
console.log(`median per attempt ${ms(median(all))}, per finished map ${ms(median(done))} ` +
  `(with unknown cells ${ms(median(finished.filter((f) => f.unknown).map((f) => f.ms)))}, ` +
  `complete ${ms(median(finished.filter((f) => !f.unknown).map((f) => f.ms)))})`);
console.log(`mean per attempt ${ms(sum(all) / maps)}, per finished map ${ms(sum(all) / Math.max(1, finished.length))}`);

const table = opt('--ours', null);
if (table) {
  const ours = new Map();
  for (const line of fs.readFileSync(table, 'utf8').split('\n')) {
    const [w, h, us] = line.trim().split(/\s+/).map(Number);
    if (us > 0) ours.set(`${w}x${h}`, us);
  }
  const missing = finished.filter((f) => !ours.has(`${f.w}x${f.h}`));
  if (missing.length) {
    console.error(`--ours has no time for ${missing[0].w}x${missing[0].h}`);
    process.exit(2);
  }
  const oursOf = (f) => ours.get(`${f.w}x${f.h}`);
  const ratios = finished.map((f) => (f.ms * 1000) / oursOf(f));
  const sumRatio = (sum(done) * 1000) / sum(finished.map(oursOf));
  console.log(`against ours at the same sizes: median ratio ${median(ratios).toFixed(0)}x, ` +
    `ratio of sums ${sumRatio.toFixed(0)}x (ours ${(sum(finished.map(oursOf)) / finished.length).toFixed(2)} µs ` +
    `per map over the reference's finished sizes)`);
}
