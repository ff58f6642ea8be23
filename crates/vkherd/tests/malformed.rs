//! The malformed-input corpus in tests/malformed/: every file is rejected with exit code 2
//! and one diagnostic that names a real line and column (never line 0), shows the line with
//! a caret and says what was expected. The exact stderr of each is locked by an insta
//! snapshot (reviewed like code).
//!
//! `.litmus` files run as `vkherd FILE`, `.test` files as `vkherd khronos FILE`, from inside
//! the corpus directory so that the paths in the snapshots are relative.

use crate::util::bin;
use std::path::{Path, PathBuf};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/malformed")
}

fn corpus() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(corpus_dir())
        .expect("tests/malformed")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".litmus") || n.ends_with(".test"))
        .collect();
    names.sort();
    names
}

/// Runs the binary on one corpus file: (exit code, stderr).
fn run(name: &str) -> (i32, String) {
    let mut cmd = bin();
    if name.ends_with(".test") {
        cmd.arg("khronos");
    }
    let out = cmd
        .arg(name)
        .current_dir(corpus_dir())
        .env("RAYON_NUM_THREADS", "2")
        .output()
        .expect("run vkherd");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The problems with a diagnostic's shape, if any.
fn shape_problems(name: &str, code: i32, stderr: &str) -> Vec<String> {
    let mut problems = Vec::new();
    if code != 2 {
        problems.push(format!("exit code {code}, expected 2"));
    }
    let lines: Vec<&str> = stderr.lines().collect();
    if lines.len() != 5 {
        problems.push(format!("{} lines of stderr, expected 5", lines.len()));
        return problems;
    }
    if !lines[0].starts_with("error: ") {
        problems.push("the first line is not `error: ...`".into());
    }
    // What was expected: said in words, or as the Alloy rule a barrier breaks, or as the
    // limit a test exceeds.
    if !["expected", "(Alloy: ", "more than "]
        .iter()
        .any(|w| lines[0].contains(w))
    {
        problems.push("the message does not say what was expected".into());
    }
    let location = lines[1].trim_start().strip_prefix("--> ").unwrap_or("");
    let mut parts = location.rsplitn(3, ':');
    let col: u32 = parts.next().and_then(|c| c.parse().ok()).unwrap_or(0);
    let line: u32 = parts.next().and_then(|l| l.parse().ok()).unwrap_or(0);
    if parts.next() != Some(name) || line == 0 || col == 0 {
        problems.push(format!("`{}` is not ` --> {name}:LINE:COLUMN`", lines[1]));
    }
    if !lines[3].starts_with(&format!("{line} | ")) {
        problems.push("the source line is not shown".into());
    }
    if !lines[4].trim_end().ends_with('^') {
        problems.push("no caret".into());
    }
    problems
}

#[test]
fn every_malformed_input_is_rejected_with_a_located_diagnostic() {
    let names = corpus();
    assert!(names.len() >= 40, "corpus too small: {}", names.len());
    let mut failures = Vec::new();
    for name in &names {
        let (code, stderr) = run(name);
        let problems = shape_problems(name, code, &stderr);
        if !problems.is_empty() {
            failures.push(format!("{name}: {}\n{stderr}", problems.join("; ")));
        }
        insta::assert_snapshot!(
            name.replace('.', "_"),
            format!("exit code: {code}\n{stderr}")
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
