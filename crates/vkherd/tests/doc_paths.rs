//! Every corpus test and every file of the repository that the docs name in backticks
//! exists: a renamed or removed test must not leave a page (docs/differences.md above
//! all, whose entries each point at the test that shows them) pointing at nothing.

use crate::util::root;
use std::path::PathBuf;

/// The pages: docs/*.md, README.md and the corpus's README and COVERAGE.
fn pages() -> Vec<PathBuf> {
    let r = root();
    let mut out: Vec<PathBuf> = std::fs::read_dir(r.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    out.extend(
        [
            "README.md",
            "litmus-tests/README.md",
            "litmus-tests/COVERAGE.md",
        ]
        .map(|p| r.join(p)),
    );
    out.sort();
    out
}

/// Does the code span `span` name a file or directory of the repository, and if so, the
/// path below the root it names (`opencl/sc/Z6.U` is `litmus-tests/opencl/sc/Z6.U.litmus`).
fn named_path(span: &str, corpus_dirs: &[String]) -> Option<Vec<String>> {
    if span.contains(|c: char| c.is_whitespace() || "*<>".contains(c))
        || span.ends_with(['-', '_', '/'])
    {
        return None; // a command, a glob, a placeholder (`<name>`) or a prefix
    }
    let first = span.split('/').next()?;
    if !span.contains('/') {
        return None;
    }
    if span.starts_with("crates/") || span.starts_with("litmus-tests/") {
        return Some(vec![span.to_string()]);
    }
    corpus_dirs.iter().any(|d| d == first).then(|| {
        vec![
            format!("litmus-tests/{span}"),
            format!("litmus-tests/{span}.litmus"),
        ]
    })
}

#[test]
fn every_test_and_file_the_docs_name_exists() {
    let r = root();
    let corpus_dirs: Vec<String> = std::fs::read_dir(r.join("litmus-tests"))
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(corpus_dirs.iter().any(|d| d == "opencl"), "{corpus_dirs:?}");
    let mut missing = Vec::new();
    let mut checked = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        // Code spans are the odd pieces between backticks (fenced blocks give empty or
        // multi-line pieces, which name no path).
        for span in text.split('`').skip(1).step_by(2) {
            let Some(candidates) = named_path(span, &corpus_dirs) else {
                continue;
            };
            checked += 1;
            if !candidates.iter().any(|c| r.join(c).exists()) {
                missing.push(format!("{}: `{span}`", page.display()));
            }
        }
    }
    assert!(
        checked > 50,
        "only {checked} paths found: is the scan broken?"
    );
    assert!(
        missing.is_empty(),
        "paths named in the docs that do not exist:\n{}",
        missing.join("\n")
    );
}

/// The docs stand on their own (issue 33): none points into `../shared`, the project's
/// workspace beside the repository, which a clone does not have. A doc may name an
/// outside source (the Khronos suite, the project's design notes) as long as it does not
/// depend on it for its facts.
#[test]
fn no_doc_points_into_the_workspace_outside_the_repository() {
    let mut found = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for (n, line) in text.lines().enumerate() {
            if [
                "../shared",
                "shared/docs/",
                "shared/tools/",
                "shared/khronos-tests",
            ]
            .iter()
            .any(|p| line.contains(p))
            {
                found.push(format!("{}:{}: {line}", page.display(), n + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "docs pointing outside the repository:\n{}",
        found.join("\n")
    );
}
