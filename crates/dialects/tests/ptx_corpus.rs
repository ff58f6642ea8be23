//! Every PTX test of Dat3M's that the project has (../shared/dat3m/ptx-tests beside the
//! repository, not in a fresh clone) parses. Without the folder the test says so and
//! passes.

use std::path::{Path, PathBuf};
use vkherd_dialects::ptx::ast::PtxInstr;
use vkherd_dialects::ptx::{is_ptx, parse_ptx};

/// `shared/dat3m/ptx-tests` beside the repository; a worktree is deeper than the main
/// clone, so every folder above the crate is tried.
fn corpus_dir() -> Option<PathBuf> {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|d| d.join("shared/dat3m/ptx-tests"))
        .find(|d| d.is_dir())
}

fn litmus_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            litmus_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "litmus") {
            out.push(p);
        }
    }
}

#[test]
fn every_dat3m_ptx_test_parses() {
    let Some(dir) = corpus_dir() else {
        eprintln!(
            "skipping every_dat3m_ptx_test_parses: no shared/dat3m/ptx-tests above {} (a fresh clone has no ../shared)",
            env!("CARGO_MANIFEST_DIR")
        );
        return;
    };
    let mut files = Vec::new();
    litmus_files(&dir, &mut files);
    files.sort();
    assert!(!files.is_empty(), "no .litmus file under {}", dir.display());
    let mut failures = Vec::new();
    let mut instructions = 0;
    for f in &files {
        let source = String::from_utf8_lossy(&std::fs::read(f).unwrap()).into_owned();
        let name = f.strip_prefix(&dir).unwrap().display().to_string();
        assert!(is_ptx(&source), "{name}: is_ptx is false");
        match parse_ptx(&source) {
            Ok(t) => {
                assert!(!t.threads.is_empty(), "{name}: no thread");
                assert!(t.condition.is_some(), "{name}: no condition");
                instructions += t
                    .code
                    .iter()
                    .flatten()
                    .filter(|i| !matches!(i.value, PtxInstr::Label(_)))
                    .count();
            }
            Err(e) => failures.push(e.render(&name, &source)),
        }
    }
    eprintln!(
        "parsed {} PTX tests ({instructions} instructions) under {}",
        files.len(),
        dir.display()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
