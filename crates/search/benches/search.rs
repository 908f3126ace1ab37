//! Evaluations per second: random candidates of `examples/search/binary.json`, 10 maps of
//! 14x14 each, on one thread (with the example's double-sweep longest path, and exact); the
//! decoding, the map generation and the longest-path metric alone.

use criterion::{Criterion, criterion_group, criterion_main};
use grid_core::metrics::EmptySet;
use grid_core::metrics::paths::{longest_path, longest_path_with};
use grid_core::{Connectivity, Seed};
use levelgen_search::evaluate::Scratch;
use levelgen_search::{Search, spec};
use std::hint::black_box;
use std::path::Path;

/// The text of `examples/search/<name>` in the levelgen repository, read at run time: the
/// examples live outside this package.
fn example(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/search")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (this benchmark reads the levelgen repository's examples/)",
            path.display()
        )
    })
}

fn evaluations(c: &mut Criterion) {
    let mut spec = spec::parse(&example("binary.json")).expect("the example parses");
    spec.maps = 10;
    let search = Search::new(&spec).expect("the example compiles");
    let ev = search.evaluator();
    let mut rng = Seed(7).rng();
    let genomes: Vec<Vec<f64>> = (0..100).map(|_| ev.space.random(&mut rng)).collect();
    let mut scratch = Scratch::default();
    c.bench_function("evaluate 100 binary candidates x 10 maps 14x14", |b| {
        b.iter(|| {
            for g in &genomes {
                black_box(ev.evaluate(g, &mut scratch));
            }
        })
    });
    c.bench_function("decode and compile 100 binary candidates", |b| {
        b.iter(|| {
            for g in &genomes {
                let _ = black_box(ev.compile(g));
            }
        })
    });
    let generator = ev.compile(&genomes[0]).expect("a runnable candidate");
    let maps: Vec<_> = (0..10)
        .map(|s| generator.generate(s).expect("a map").map)
        .collect();
    let passable = EmptySet::from_ids(&[0]);
    c.bench_function("longest_path 10 maps 14x14", |b| {
        b.iter(|| {
            for m in &maps {
                black_box(longest_path(m.as_ref(), &passable, Connectivity::Four));
            }
        })
    });
    c.bench_function("longest_path double sweep 10 maps 14x14", |b| {
        b.iter(|| {
            for m in &maps {
                black_box(longest_path_with(
                    m.as_ref(),
                    &passable,
                    Connectivity::Four,
                    0,
                ));
            }
        })
    });
    let mut exact = spec.clone();
    exact.measure.exact_path_cells = 1024;
    let exact = Search::new(&exact).expect("the example compiles");
    c.bench_function(
        "evaluate 100 binary candidates x 10 maps 14x14, exact path",
        |b| {
            b.iter(|| {
                for g in &genomes {
                    black_box(exact.evaluator().evaluate(g, &mut scratch));
                }
            })
        },
    );
    c.bench_function("generate 10 maps 14x14", |b| {
        b.iter(|| {
            for s in 0..10 {
                black_box(generator.generate(s).expect("a map"));
            }
        })
    });
}

criterion_group!(benches, evaluations);
criterion_main!(benches);
