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
