//! The corpus's `.litmus` files, for the integration tests that walk it.
#![allow(dead_code)] // each test binary uses its own part

use std::path::{Path, PathBuf};
use vkherd::RunConfig;

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

/// Every `.litmus` file of the corpus, both dialects, sorted.
pub fn corpus_files() -> Vec<PathBuf> {
    litmus_files(&corpus_root())
}

/// The herd-style reports of `program` from the pruned search and from plain exhaustive
/// enumeration (`--naive`), default options otherwise: they must be the same.
pub fn pruned_and_naive_reports(program: &vkherd_model::Program) -> (String, String) {
    let run = |naive: bool| {
        let opts = vkherd::Options {
            run: RunConfig {
                naive,
                ..RunConfig::default()
            },
            ..vkherd::Options::default()
        };
        vkherd::report::herd_text(&vkherd::run(program, &opts).expect("runs"))
    };
    (run(false), run(true))
}
