//! `vkherd khronos PATH...`: a line per check, a summary, non-zero exit on any FAIL.

use crate::args::{CommonArgs, LimitArgs};
use crate::cli::exit::ExitStatus;
use crate::cli::for_each_test::{for_each_test, ErrorOutput, TestFile};
use crate::cli::test_error::TestError;
use crate::cli::test_files::{files_to_run, TestKind};
use std::path::PathBuf;
use std::time::Instant;
use vkherd::json::{KhronosCheck, KhronosSummary, KhronosSummaryLine};
use vkherd::khronos::run_khronos;
use vkherd::models::{ModelChoice, ModelSpec};
use vkherd::report::{self, plural};

pub fn run(
    paths: &[PathBuf],
    model: &ModelChoice,
    common: &CommonArgs,
    limits: &LimitArgs,
) -> ExitStatus {
    let files = match files_to_run(paths, TestKind::Khronos) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{e}");
            return ExitStatus::BadInput;
        }
    };
    let opts = limits.options(model);
    // Khronos tests are Vulkan tests: the model is resolved for them once, and one for
    // another dialect is refused before any runs.
    let resolved = match model.resolve(&vkherd_dialects::vulkan::VULKAN) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: Khronos tests are Vulkan tests, and {e}");
            return ExitStatus::BadInput;
        }
    };
    // The same keys as every other JSON object of vkherd's (Khronos tests have no loops, so
    // the unroll bound is moot, but one schema is simpler to archive).
    let info = report::run_info(&opts);
    let as_json = common.json;
    let start = Instant::now();
    let (mut passed, mut failed, mut partial) = (0u64, 0u64, 0u64);
    let word = |s: bool| if s { "SATISFIABLE" } else { "NOSOLUTION" };
    let mut check = |test: &TestFile<'_>| -> Result<ExitStatus, TestError> {
        let name = test
            .path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        for r in run_khronos(&test.source, &name, &resolved, &opts.run)? {
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
                    file: test.name.clone(),
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
        // Counted, not combined: a failed check wins over a stopped one (below).
        Ok(ExitStatus::Ok)
    };
    let tests = files.iter().map(PathBuf::as_path).enumerate();
    let walked = for_each_test(
        tests,
        ErrorOutput::json_if(as_json, Some(&info)),
        &mut check,
    );
    let bad = walked.errors;
    let secs = start.elapsed().as_secs_f64();
    let label = match resolved.spec() {
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
        ExitStatus::BadInput
    } else if failed > 0 {
        ExitStatus::Fail
    } else if partial > 0 {
        ExitStatus::Partial
    } else {
        ExitStatus::Ok
    }
}
