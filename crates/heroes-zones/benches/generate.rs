//! Generation speed: 256x256 maps from the 9-zone and 25-zone reference-shaped templates
//! (synthesised here, so the bench needs no fixtures), and size scaling; the layout step alone
//! on the largest VCMI templates.

use criterion::{Criterion, criterion_group, criterion_main};
use heroes_zones::{Config, Template, generate};
use std::hint::black_box;

/// A `w x h` grid of zones, each connected to its right and lower neighbour.
fn grid_template(w: usize, h: usize) -> Template {
    let surfaces = [
        "SAND",
        "SNOW",
        "LAVA",
        "SWAMP",
        "DIRT",
        "GRASS",
        "WASTELAND",
        "DESERT",
        "NDESERT",
    ];
    let zones: Vec<String> = (0..w * h)
        .map(|i| format!(r#"{{"surface":"{}","size":50,"index":{i},"castles":[{{}}],"mines":[{{"resource":"ORE"}}]}}"#, surfaces[i % 9]))
        .collect();
    let mut conns = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let i = y * w + x;
            if x + 1 < w {
                conns.push(format!(r#"{{"first":{i},"second":{}}}"#, i + 1));
            }
            if y + 1 < h {
                conns.push(format!(r#"{{"first":{i},"second":{}}}"#, i + w));
            }
        }
    }
    Template::from_json(&format!(
        r#"{{"name":"bench","zones":[{}],"connections":[{}]}}"#,
        zones.join(","),
        conns.join(",")
    ))
    .unwrap()
}

fn bench(c: &mut Criterion) {
    let config = Config::default();
    let t9 = grid_template(3, 3);
    let t25 = grid_template(5, 5);
    for size in [64u32, 128, 256] {
        c.bench_function(&format!("9 zones {size}x{size}"), |b| {
            b.iter(|| generate(black_box(&t9), &config, size, 1).unwrap())
        });
    }
    // The reference's own templates, when the fixtures are next to the workspace.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/fixtures/korge/templates");
    for name in ["zones9", "zones25"] {
        match std::fs::read_to_string(dir.join(format!("{name}.json"))) {
            Ok(text) => {
                let t = Template::from_json(&text).unwrap();
                c.bench_function(&format!("fixture {name} 256x256"), |b| {
                    b.iter(|| generate(black_box(&t), &config, 256, 1).unwrap())
                });
            }
            Err(_) => eprintln!("skipping fixture {name}: ../shared/fixtures not found"),
        }
    }
    c.bench_function("25 zones 256x256", |b| {
        b.iter(|| generate(black_box(&t25), &config, 256, 1).unwrap())
    });
    layouts(c);
}

/// The layout step alone on the largest VCMI templates (48 zones, planar; 47 zones, not
/// planar), when the community collection is next to the workspace.
fn layouts(c: &mut Criterion) {
    use heroes_zones::vcmi::{Options, load};
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/fixtures/vcmi-templates");
    let mut group = c.benchmark_group("layout");
    group.sample_size(10);
    for (file, name) in [
        ("symmetric/8xm8.json", "8XM8"),
        ("hdmodUnused/midnightMix.json", "Midnight Mix 38"),
    ] {
        let Ok(text) = std::fs::read_to_string(dir.join(file)) else {
            eprintln!("skipping layout {name}: ../shared/fixtures not found");
            continue;
        };
        let t = load(&text, Some(name), &Options::default()).unwrap();
        let at = |i: i32| t.template.zones.iter().position(|z| z.index == i).unwrap();
        let sizes: Vec<f64> = t
            .template
            .zones
            .iter()
            .map(|z| z.size.max(1) as f64)
            .collect();
        let edges: Vec<(usize, usize)> = t
            .template
            .connections
            .iter()
            .filter(|k| k.kind != heroes_zones::ConnectionType::Portal)
            .map(|k| (at(k.first), at(k.second)))
            .collect();
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut rng = grid_core::Seed(1).stream("layout").rng();
                heroes_zones::layout::layout(black_box(&sizes), &edges, t.side as f64, &mut rng)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
