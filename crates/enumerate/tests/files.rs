//! The corpus's `.litmus` files, for the integration tests that walk them (here and in
//! crates/vkherd/tests, which includes this file).

use std::path::{Path, PathBuf};

/// litmus-tests/ of the repository.
pub fn corpus_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../litmus-tests")
}

/// Every `.litmus` file below `dir`, sorted.
pub fn litmus_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("read the corpus") {
            let p = entry.expect("a directory entry").path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "litmus") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Every `.litmus` file of the corpus, every dialect, sorted.
pub fn corpus_files() -> Vec<PathBuf> {
    litmus_files(&corpus_root())
}

/// The corpus files the hand-written engine can evaluate: those of dialects with the
/// three scope levels its Vulkan terms read (subgroup, workgroup, queue family; OpenCL's
/// map onto them). The tests that compare that engine with another walk these.
#[allow(dead_code)]
pub fn hand_engine_files() -> Vec<PathBuf> {
    corpus_files()
        .into_iter()
        .filter(|p| {
            let source = std::fs::read_to_string(p).expect("readable");
            vkherd_dialects::of(&source).levels.len() >= 3
        })
        .collect()
}
