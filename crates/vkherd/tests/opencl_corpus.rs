//! The OpenCL corpus in litmus-tests/opencl/: every test parses and lowers, and its
//! header states the expected verdict, the race flag and the rule of seed 004 that
//! decides it (derived by hand, docs/opencl.md "Corpus"). No OpenCL model runs yet, so
//! the verdicts are not checked here; `vkherd` refuses to judge these tests rather than
//! judge them with the Vulkan axioms.

use std::path::{Path, PathBuf};
use vkherd_model::Dialect;

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../litmus-tests/opencl")
}

fn litmus_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("OpenCL corpus directory") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            litmus_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "litmus") {
            out.push(p);
        }
    }
}

fn corpus() -> Vec<(String, String)> {
    let mut files = Vec::new();
    litmus_files(&corpus_dir(), &mut files);
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let name = p.display().to_string();
            (name, std::fs::read_to_string(&p).expect("readable"))
        })
        .collect()
}

#[test]
fn every_opencl_corpus_test_parses_lowers_and_states_its_expectation() {
    let tests = corpus();
    assert!(
        tests.len() >= 60,
        "OpenCL corpus too small: {}",
        tests.len()
    );
    let mut failures = Vec::new();
    for (name, source) in &tests {
        match vkherd::load_litmus(source) {
            Ok(p) => {
                if p.dialect != Dialect::OpenCl {
                    failures.push(format!("{name}: not lowered as OpenCL"));
                }
                let stem = Path::new(name).file_stem().unwrap().to_string_lossy();
                if p.name != stem {
                    failures.push(format!(
                        "{name}: test name {} differs from the file name",
                        p.name
                    ));
                }
            }
            Err(e) => failures.push(e.render(name, source)),
        }
        let header_ok = source.lines().any(|l| {
            let l = l.trim_start_matches("(* ");
            l.starts_with("Expected: Ok (Allowed condition holds), data race: ")
                || l.starts_with("Expected: No (Allowed condition fails), data race: ")
        });
        if !header_ok {
            failures.push(format!(
                "{name}: no `Expected: Ok|No (...), data race: yes|no` line"
            ));
        }
        if !source.contains("Rule: ") || !source.contains("Why: ") {
            failures.push(format!("{name}: no `Rule:` or `Why:` in the header"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn opencl_tests_are_refused_by_the_vulkan_model() {
    let (name, source) = &corpus()[0];
    let program = vkherd::load_litmus(source).expect("parses");
    let err = vkherd::run(&program, &vkherd::Options::default()).expect_err("refused");
    assert!(
        err.message
            .contains("the OpenCL model is not available yet"),
        "{name}: {}",
        err.message
    );
}
