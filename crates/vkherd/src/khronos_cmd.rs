//! `vkherd khronos PATH...`: a line per check, a summary, non-zero exit on any FAIL.

use crate::cli::{
    files_to_run, CommonArgs, LimitArgs, TestKind, EXIT_BAD_INPUT, EXIT_FAIL, EXIT_OK, EXIT_PARTIAL,
};
use std::path::PathBuf;
use std::time::Instant;
use vkherd::json::{KhronosCheck, KhronosSummary, KhronosSummaryLine};
use vkherd::khronos::run_khronos_with;
use vkherd::models::{ModelChoice, ModelSpec};
use vkherd::report::{self, plural, JsonError};
use vkherd::Options;

pub fn run(paths: &[PathBuf], model: &ModelChoice, common: &CommonArgs, limits: &LimitArgs) -> i32 {
    let files = match files_to_run(paths, TestKind::Khronos) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{e}");
            return EXIT_BAD_INPUT;
        }
    };
    let opts = Options {
        model: model.clone(),
        max_candidates: limits.max_candidates(),
        timeout: limits.timeout(),
        ..Options::default()
    };
    // Khronos tests are Vulkan tests: a model for another dialect is refused before any
    // runs (vkherd::judge).
    if let Err(e) = vkherd::judge::judge(vkherd_model::Dialect::Vulkan, &opts) {
        eprintln!("error: Khronos tests are Vulkan tests, and {e}");
        return EXIT_BAD_INPUT;
    }
    // The same keys as every other JSON object of vkherd's (Khronos tests have no loops, so
    // the unroll bound is moot, but one schema is simpler to archive).
    let info = report::run_info(&opts);
    let as_json = common.json;
    let start = Instant::now();
    let (mut passed, mut failed, mut partial, mut bad) = (0u64, 0u64, 0u64, 0u64);
    let word = |s: bool| if s { "SATISFIABLE" } else { "NOSOLUTION" };
    for file in &files {
        let name = file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let shown = file.display().to_string();
        let source = match std::fs::read(file) {
            Ok(b) => String::from_utf8_lossy(&b).into_owned(),
            Err(e) => {
                let message = format!("cannot read {shown}: {e}");
                eprintln!("error: {message}");
                if as_json {
                    outln!(
                        "{}",
                        report::json_error(&shown, &JsonError::File(message), Some(&info))
                    );
                }
                bad += 1;
                continue;
            }
        };
        // A panic (a bug) fails this file alone (isolate.rs).
        match crate::isolate::run_test(|| run_khronos_with(&source, &name, &opts)) {
            Ok(results) => {
                for r in results {
                    let verdict = if r.partial {
                        partial += 1;
                        "PARTIAL"
                    } else if r.passed() {
                        passed += 1;
                        "PASS"
                    } else {
                        failed += 1;
                        "FAIL"
                    };
                    let got = if r.partial {
                        "UNKNOWN"
                    } else {
                        word(r.satisfiable)
                    };
                    if as_json {
                        let check = KhronosCheck {
                            file: shown.clone(),
                            test: name.clone(),
                            line: r.line,
                            predicate: r.predicate.clone(),
                            nochains: r.nochains,
                            expected: word(r.expected_satisfiable).to_string(),
                            got: got.to_string(),
                            result: verdict.to_string(),
                            run: info.clone(),
                        };
                        outln!(
                            "{}",
                            serde_json::to_string(&check).expect("a check serializes")
                        );
                    } else {
                        outln!(
                            "{name}:{line} expected {exp} got {got} {verdict}  {nc}{pred}",
                            line = r.line,
                            exp = word(r.expected_satisfiable),
                            nc = if r.nochains { "NOCHAINS " } else { "" },
                            pred = r.predicate,
                        );
                    }
                }
            }
            Err(e) => {
                eprint!("{}", e.render(&shown, &source));
                if as_json {
                    outln!(
                        "{}",
                        report::json_error(&shown, &e.json(&shown), Some(&info))
                    );
                }
                bad += 1;
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let label = match &model.spec {
        ModelSpec::Vulkan(o) | ModelSpec::Hand(o) => format!(
            "{}{}",
            o.variant.name(),
            if o.chains { "" } else { ", no chains" }
        ),
        ModelSpec::Cat { .. } => model.name.clone(),
    };
    if as_json {
        let line = KhronosSummaryLine {
            summary: KhronosSummary {
                files: files.len(),
                passed,
                failed,
                partial,
                errors: bad,
                seconds: secs,
            },
            run: info,
        };
        outln!(
            "{}",
            serde_json::to_string(&line).expect("a summary serializes")
        );
    } else {
        outln!(
            "{} in {}: {passed} passed, {failed} failed{}{} ({secs:.3} s, model {})",
            plural(passed + failed + partial, "check"),
            plural(files.len() as u64, "file"),
            if partial > 0 {
                format!(", {partial} stopped by a limit")
            } else {
                String::new()
            },
            if bad > 0 {
                format!(", {} with errors", plural(bad, "file"))
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
    } else if partial > 0 {
        EXIT_PARTIAL
    } else {
        EXIT_OK
    }
}
