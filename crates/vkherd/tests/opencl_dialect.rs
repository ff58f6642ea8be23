//! The OpenCL dialect as other tools write it (docs/opencl.md): herd7's and Dat3M's forms
//! in tests/files/opencl-dialect/. Each file's header states the verdict, the race flag
//! and the number of warnings (derived by hand, each with its reason); every file must
//! parse, run, agree with its header, and list the same states under the pruned search
//! and plain exhaustive enumeration (`--naive`). The warnings reach stderr and the JSON
//! notes.

use crate::files;
use std::path::{Path, PathBuf};

fn fixtures() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/files/opencl-dialect");
    files::litmus_files(&dir)
        .into_iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).expect("readable"))
        })
        .collect()
}

/// The text after `key` on a header line (`Expected: `, `Warnings: `).
fn header<'a>(source: &'a str, key: &str) -> &'a str {
    source
        .lines()
        .find_map(|l| l.trim_start_matches("(* ").trim_start().strip_prefix(key))
        .unwrap_or_else(|| panic!("no `{key}` line"))
}

#[test]
fn every_fixture_parses_runs_and_agrees_with_its_header() {
    let tests = fixtures();
    assert!(tests.len() >= 30, "too few fixtures: {}", tests.len());
    let mut failures = Vec::new();
    for (name, source) in &tests {
        let program = match vkherd::load_litmus(source) {
            Ok(p) => p,
            Err(e) => {
                failures.push(e.render(name, source));
                continue;
            }
        };
        if program.dialect.name != "opencl" {
            failures.push(format!("{name}: not read as OpenCL"));
        }
        let expected = header(source, "Expected: ");
        let warnings: usize = header(source, "Warnings: ")
            .trim()
            .parse()
            .expect("a count");
        if program.warnings.len() != warnings {
            failures.push(format!(
                "{name}: header {warnings} warnings, got {:?}",
                program.warnings
            ));
        }
        let rep = vkherd::run(&program, &vkherd::Options::default()).expect("runs");
        let got = match rep.verdict {
            vkherd::Verdict::Ok => "Ok",
            vkherd::Verdict::No => "No",
        };
        let racy = if rep.outcomes.data_race() {
            "yes"
        } else {
            "no"
        };
        if !expected.starts_with(got) || !expected.contains(&format!("data race: {racy}")) {
            failures.push(format!(
                "{name}: header `{expected}`, report {got} with data race: {racy}"
            ));
        }
        // Every warning is a note of the report (what stderr and the JSON show).
        for w in &program.warnings {
            if !rep.notes.contains(&w.note()) {
                failures.push(format!("{name}: warning not in the notes: {}", w.note()));
            }
        }
        let (pruned, naive) = files::pruned_and_naive_reports(&program);
        if pruned != naive {
            failures.push(format!("{name}: the pruned search differs from --naive"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn fixture_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/files/opencl-dialect")
        .join(name)
}

/// The command line shows the warnings on stderr (`FILE: Warning: LINE:COLUMN: ...`) and
/// in the JSON report's `notes`, and still exits 0.
#[test]
fn warnings_reach_stderr_and_the_json_notes() {
    let path = fixture_path("cas-fail-release.litmus");
    let run = |args: &[&str]| {
        crate::util::bin()
            .args(args)
            .arg(&path)
            .output()
            .expect("run vkherd")
    };
    let warning = "Warning: 14:84: `memory_order_release` as a failure order: OpenCL C requires relaxed, acquire or seq_cst; read as `memory_order_relaxed`";
    let text = run(&[]);
    assert_eq!(text.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&text.stderr);
    assert!(
        stderr.contains(&format!("{}: {warning}", path.display())),
        "{stderr}"
    );
    let json = run(&["--json"]);
    assert_eq!(json.status.code(), Some(0));
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).expect("one JSON object");
    let notes = report["notes"].as_array().expect("notes");
    assert!(
        notes
            .iter()
            .any(|n| n.as_str().is_some_and(|n| n.starts_with(warning))),
        "{notes:?}"
    );
}
