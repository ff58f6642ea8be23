//! `vkherd khronos PATH...`: a line per check, a summary, non-zero exit on any FAIL.

use crate::cli::{collect_files, EXIT_BAD_INPUT, EXIT_FAIL, EXIT_OK};
use serde_json::json;
use std::path::PathBuf;
use std::time::Instant;
use vkherd::khronos::run_khronos;
use vkherd::models::ModelChoice;

pub fn run(paths: &[PathBuf], model: &ModelChoice, as_json: bool) -> i32 {
    let files = match collect_files(paths, "test") {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{e}");
            return EXIT_BAD_INPUT;
        }
    };
    let start = Instant::now();
    let (mut passed, mut failed, mut bad) = (0u64, 0u64, 0u64);
    for file in &files {
        let name = file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let shown = file.display().to_string();
        let source = match std::fs::read(file) {
            Ok(b) => String::from_utf8_lossy(&b).into_owned(),
            Err(e) => {
                eprintln!("error: cannot read {shown}: {e}");
                bad += 1;
                continue;
            }
        };
        match run_khronos(&source, &name, model.options, model.cat.as_ref()) {
            Ok(results) => {
                for r in results {
                    let word = |s: bool| if s { "SATISFIABLE" } else { "NOSOLUTION" };
                    let verdict = if r.passed() { "PASS" } else { "FAIL" };
                    if r.passed() {
                        passed += 1;
                    } else {
                        failed += 1;
                    }
                    if as_json {
                        outln!(
                            "{}",
                            json!({
                                "file": shown, "test": name, "line": r.line,
                                "predicate": r.predicate, "nochains": r.nochains,
                                "expected": word(r.expected_satisfiable),
                                "got": word(r.satisfiable), "result": verdict,
                            })
                        );
                    } else {
                        outln!(
                            "{name}:{line} expected {exp} got {got} {verdict}  {nc}{pred}",
                            line = r.line,
                            exp = word(r.expected_satisfiable),
                            got = word(r.satisfiable),
                            nc = if r.nochains { "NOCHAINS " } else { "" },
                            pred = r.predicate,
                        );
                    }
                }
            }
            Err(d) => {
                eprint!("{}", d.render(&shown, &source));
                bad += 1;
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let label = match &model.cat {
        None => format!(
            "{}{}",
            model.options.variant.name(),
            if model.options.chains {
                ""
            } else {
                ", no chains"
            }
        ),
        Some(_) => model.name.clone(),
    };
    if as_json {
        outln!(
            "{}",
            json!({"summary": {"files": files.len(), "passed": passed, "failed": failed, "errors": bad, "seconds": secs}})
        );
    } else {
        outln!(
            "{} checks in {} files: {passed} passed, {failed} failed{} ({secs:.3} s, model {})",
            passed + failed,
            files.len(),
            if bad > 0 {
                format!(", {bad} files with errors")
            } else {
                String::new()
            },
            label,
        );
    }
    if bad > 0 {
        EXIT_BAD_INPUT
    } else if failed > 0 {
        EXIT_FAIL
    } else {
        EXIT_OK
    }
}
