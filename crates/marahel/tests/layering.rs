//! The core stands alone: no source file outside `src/accel/` names the acceleration layer
//! except the hook (`src/hook.rs`) and the feature gate (`src/lib.rs`), and the IR
//! (`src/program.rs`) holds no state of it. `cargo test -p marahel --no-default-features`
//! runs the core's suite without the layer.

use std::path::{Path, PathBuf};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn only_the_hook_and_the_feature_gate_name_the_layer() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let allowed = [src.join("hook.rs"), src.join("lib.rs")];
    let mut core = 0;
    let mut naming = Vec::new();
    for f in &files {
        if f.starts_with(src.join("accel")) || allowed.contains(f) {
            continue;
        }
        core += 1;
        let text = std::fs::read_to_string(f).unwrap();
        if text.to_lowercase().contains("accel") {
            naming.push(f.strip_prefix(&src).unwrap().display().to_string());
        }
    }
    assert!(core >= 30, "{core} core files found");
    assert_eq!(naming, Vec::<String>::new(), "core files naming the layer");
    // The hook is the only way in: the layer's module is declared under the feature only.
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    assert!(lib.contains("#[cfg(feature = \"accel\")]\npub mod accel;"));
    let hook = std::fs::read_to_string(src.join("hook.rs")).unwrap();
    assert_eq!(
        hook.matches("crate::accel").count(),
        1,
        "one import in the hook"
    );
}

#[test]
fn the_program_holds_no_layer_state() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let program = std::fs::read_to_string(src.join("program.rs")).unwrap();
    for word in ["kernel", "Kernel", "hook", "Layer", "Built"] {
        assert!(!program.contains(word), "program.rs names {word}");
    }
}
