//! `vkherd diff MODEL_A MODEL_B PATH...`: what a model change does to a corpus. For each
//! test, the final states one model allows and the other forbids, and whether the verdict
//! on the test's condition changes; text (one block per test that differs) or JSON.

use crate::cli::{files_to_run, RunArgs, TestKind, EXIT_BAD_INPUT, EXIT_OK};
use serde_json::json;
use std::path::PathBuf;
use vkherd::models::{resolve, ModelChoice};
use vkherd::{report, Report, Verdict};

/// `NAME+VARIANT+...`: a model and its variants.
fn parse_spec(spec: &str) -> Result<ModelChoice, String> {
    let mut parts = spec.split('+');
    let name = parts.next().unwrap_or_default();
    let variants: Vec<String> = parts.map(str::to_string).collect();
    resolve(name, &variants, false)
}

fn verdict_word(v: Verdict) -> &'static str {
    match v {
        Verdict::Ok => "Ok",
        Verdict::No => "No",
    }
}

/// The states of `a` that `b` does not have, as state lines.
fn only_in(a: &Report, b: &Report) -> Vec<String> {
    a.outcomes
        .states
        .keys()
        .filter(|k| !b.outcomes.states.contains_key(*k))
        .map(|k| report::state_line(a, k, false, false))
        .collect()
}

pub fn run(a: &str, b: &str, paths: &[PathBuf], run: &RunArgs, as_json: bool) -> i32 {
    let (ma, mb) = match (parse_spec(a), parse_spec(b)) {
        (Ok(x), Ok(y)) => (x, y),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("{}", e.trim_end());
            return EXIT_BAD_INPUT;
        }
    };
    let files = match files_to_run(paths, TestKind::Litmus) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{e}");
            return EXIT_BAD_INPUT;
        }
    };
    let (oa, ob) = (run.options(&ma), run.options(&mb));
    let (mut differ, mut verdicts, mut bad) = (0u64, 0u64, 0u64);
    for file in &files {
        let name = file.display().to_string();
        let source = match std::fs::read(file) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) => {
                eprintln!("error: cannot read {name}: {e}");
                bad += 1;
                continue;
            }
        };
        let result = vkherd::load_litmus(&source)
            .and_then(|p| Ok((vkherd::run(&p, &oa)?, vkherd::run(&p, &ob)?)));
        let (ra, rb) = match result {
            Ok(r) => r,
            Err(d) => {
                eprint!("{}", d.render(&name, &source));
                bad += 1;
                continue;
            }
        };
        let (only_a, only_b) = (only_in(&ra, &rb), only_in(&rb, &ra));
        let verdict_changes = ra.verdict != rb.verdict;
        if only_a.is_empty() && only_b.is_empty() && !verdict_changes {
            continue;
        }
        differ += 1;
        verdicts += u64::from(verdict_changes);
        if as_json {
            outln!(
                "{}",
                json!({
                    "file": name,
                    "only_a": only_a,
                    "only_b": only_b,
                    "verdict_a": verdict_word(ra.verdict),
                    "verdict_b": verdict_word(rb.verdict),
                })
            );
        } else {
            outln!("Test {name}");
            for s in &only_a {
                outln!("  only {}: {s}", ma.name);
            }
            for s in &only_b {
                outln!("  only {}: {s}", mb.name);
            }
            if verdict_changes {
                outln!(
                    "  verdict: {} under {}, {} under {}",
                    verdict_word(ra.verdict),
                    ma.name,
                    verdict_word(rb.verdict),
                    mb.name
                );
            }
        }
    }
    if as_json {
        outln!(
            "{}",
            json!({"summary": {"tests": files.len(), "differ": differ, "verdict_changes": verdicts, "errors": bad, "a": ma.name, "b": mb.name}})
        );
    } else {
        outln!(
            "{} tests: {differ} differ, {verdicts} verdict change(s) ({} against {})",
            files.len(),
            ma.name,
            mb.name
        );
    }
    if bad > 0 {
        EXIT_BAD_INPUT
    } else {
        EXIT_OK
    }
}
