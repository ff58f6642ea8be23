//! `vkherd diff MODEL_A MODEL_B PATH...`: what a model change does to a corpus. For each
//! test, the final states one model allows and the other forbids, and whether the verdict
//! on the test's condition changes; text (one block per test that differs or is partial)
//! or JSON.
//!
//! A run stopped by a limit has found only some of its states: a state missing from it may
//! still be allowed. So a state is reported as allowed by one model only when the other
//! model's run is complete, and a verdict change only when both verdicts are final
//! ([`vkherd::Report::verdict_final`]); what a partial run leaves open is counted, not
//! reported as a difference (docs/cli.md "vkherd diff").

use crate::args::RunArgs;
use crate::cli::exit::ExitStatus;
use crate::cli::for_each_test::{for_each_test, ErrorOutput, TestFile};
use crate::cli::test_error::TestError;
use crate::cli::test_files::{files_to_run, TestKind};
use serde::Serialize;
use std::path::PathBuf;
use vkherd::models::translation_for;
use vkherd::models::{resolve, ModelChoice};
use vkherd::report::{self, verdict_word};
use vkherd::translated::{self, Listing};
use vkherd::Report;

/// `NAME+VARIANT+...`: a model and its variants ([`vkherd::models::ModelName`]).
fn parse_spec(spec: &str) -> Result<ModelChoice, String> {
    resolve(spec, &[], false).map_err(|e| e.to_string())
}

/// The states of `a` that `b` did not find, as state lines.
fn only_in(a: &Report, b: &Report) -> Vec<String> {
    a.outcomes
        .states
        .keys()
        .filter(|k| !b.outcomes.states.contains_key(*k))
        .map(|k| report::state_line(a, k, None))
        .collect()
}

/// What `diff` says about one test (one JSON object; the text block says the same).
#[derive(Debug, Serialize)]
pub(crate) struct TestDiff {
    file: String,
    /// States model A allows and model B forbids: A found them and B's run is complete.
    only_a: Vec<String>,
    /// The same the other way round.
    only_b: Vec<String>,
    /// The verdicts (`Ok`/`No`; that of the executions found so far when not final).
    verdict_a: &'static str,
    verdict_b: &'static str,
    verdict_final_a: bool,
    verdict_final_b: bool,
    /// Both verdicts are final and differ.
    verdict_change: bool,
    /// Either run was stopped by a limit.
    partial: bool,
    partial_a: bool,
    partial_b: bool,
    /// States A found that B's partial run did not: whether B allows them is open.
    unsettled_a: usize,
    unsettled_b: usize,
    /// The translations a model of another dialect needed (docs/cli.md "vkherd diff",
    /// "Models of two dialects"): the model's name and the listing.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    translated: Vec<TranslatedFor>,
}

/// A translation for one model.
#[derive(Debug, Serialize)]
pub(crate) struct TranslatedFor {
    model: String,
    #[serde(flatten)]
    listing: Listing,
}

impl TestDiff {
    pub(crate) fn new(file: String, ra: &Report, rb: &Report) -> TestDiff {
        let (partial_a, partial_b) = (ra.stats.stopped.is_some(), rb.stats.stopped.is_some());
        let (found_a, found_b) = (only_in(ra, rb), only_in(rb, ra));
        // A state only A found is settled as "only A" when B's run is complete.
        let (only_a, unsettled_a) = if partial_b {
            (Vec::new(), found_a.len())
        } else {
            (found_a, 0)
        };
        let (only_b, unsettled_b) = if partial_a {
            (Vec::new(), found_b.len())
        } else {
            (found_b, 0)
        };
        let (verdict_final_a, verdict_final_b) = (ra.verdict_final(), rb.verdict_final());
        TestDiff {
            file,
            only_a,
            only_b,
            verdict_a: verdict_word(ra.verdict),
            verdict_b: verdict_word(rb.verdict),
            verdict_final_a,
            verdict_final_b,
            verdict_change: verdict_final_a && verdict_final_b && ra.verdict != rb.verdict,
            partial: partial_a || partial_b,
            partial_a,
            partial_b,
            unsettled_a,
            unsettled_b,
            translated: Vec::new(),
        }
    }

    /// A settled difference: a state one model allows and the other forbids, or a
    /// verdict change.
    fn differs(&self) -> bool {
        !self.only_a.is_empty() || !self.only_b.is_empty() || self.verdict_change
    }

    fn print_text(&self, (a, b): (&str, &str), (ra, rb): (&Report, &Report)) {
        outln!("Test {}", self.file);
        for t in &self.translated {
            for line in t.listing.lines(&t.model) {
                outln!("  {line}");
            }
        }
        for (model, r) in [(a, ra), (b, rb)] {
            if let Some(reason) = r.stats.stopped {
                let verdict = if r.verdict_final() {
                    "its verdict is final"
                } else {
                    "its verdict is open"
                };
                outln!(
                    "  partial: {model} {}; {verdict}",
                    vkherd::stop_text(reason, r.stats.candidates)
                );
            }
        }
        for s in &self.only_a {
            outln!("  only {a}: {s}");
        }
        for s in &self.only_b {
            outln!("  only {b}: {s}");
        }
        if self.unsettled_a + self.unsettled_b > 0 {
            outln!(
                "  unsettled: {} found by {a} only and {} found by {b} only, not reported as allowed by one model only: the other model's run stopped before it could find or rule them out",
                report::plural(self.unsettled_a as u64, "state"),
                self.unsettled_b,
            );
        }
        fn word(w: &'static str, settled: bool) -> &'static str {
            if settled {
                w
            } else {
                "open"
            }
        }
        let (va, vb) = (
            word(self.verdict_a, self.verdict_final_a),
            word(self.verdict_b, self.verdict_final_b),
        );
        if self.verdict_change {
            outln!("  verdict: {va} under {a}, {vb} under {b}");
        } else if !(self.verdict_final_a && self.verdict_final_b) {
            outln!("  verdict: {va} under {a}, {vb} under {b} (open: the run stopped before the states found settled it)");
        }
        if !self.differs() && !self.partial {
            outln!("  same states under {a} and {b}");
        }
    }
}

/// The summary object of `--json`.
#[derive(Debug, Serialize)]
struct Summary<'a> {
    tests: usize,
    differ: u64,
    verdict_changes: u64,
    partial: u64,
    errors: u64,
    a: &'a str,
    b: &'a str,
}

#[derive(Serialize)]
struct SummaryLine<'a> {
    summary: Summary<'a>,
}

pub fn run(a: &str, b: &str, paths: &[PathBuf], run: &RunArgs, as_json: bool) -> ExitStatus {
    let (ma, mb) = match (parse_spec(a), parse_spec(b)) {
        (Ok(x), Ok(y)) => (x, y),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("{}", e.trim_end());
            return ExitStatus::BadInput;
        }
    };
    let files = match files_to_run(paths, TestKind::Litmus) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{e}");
            return ExitStatus::BadInput;
        }
    };
    let (oa, ob) = (run.options(&ma), run.options(&mb));
    let (mut differ, mut verdicts, mut partial) = (0u64, 0u64, 0u64);
    let mut compare = |test: &TestFile<'_>| -> Result<ExitStatus, TestError> {
        let p = vkherd::load_litmus(&test.source)?;
        // A model of another dialect judges the test's translation, when one is registered,
        // but only across the two models' dialects: when neither model is for the test's
        // dialect, both would judge a translation nobody asked for, so the runs refuse the
        // test as they would without diff (docs/cli.md "Models of two dialects").
        let across = [&ma.spec, &mb.spec]
            .iter()
            .any(|spec| translation_for(spec, p.dialect).is_none());
        let (pa, la) = translated::for_model_if(across, &p, &test.source, &ma.spec)?;
        let (pb, lb) = translated::for_model_if(across, &p, &test.source, &mb.spec)?;
        let (ra, rb) = (vkherd::run(&pa, &oa)?, vkherd::run(&pb, &ob)?);
        // The exit code follows the runs' limits (3 or 4, as `--help` says); a
        // bounded-empty run is the same under both models and not diff's subject.
        let status = [&ra, &rb]
            .into_iter()
            .map(ExitStatus::of_report)
            .filter(|s| *s != ExitStatus::BoundedEmpty)
            .sum();
        let mut d = TestDiff::new(test.name.clone(), &ra, &rb);
        for (model, listing) in [(&ma.name, la), (&mb.name, lb)] {
            if let Some(listing) = listing {
                d.translated.push(TranslatedFor {
                    model: model.clone(),
                    listing,
                });
            }
        }
        // A translated test is always shown: the output says what was translated.
        if !d.differs() && !d.partial && d.translated.is_empty() {
            return Ok(status);
        }
        differ += u64::from(d.differs());
        verdicts += u64::from(d.verdict_change);
        partial += u64::from(d.partial);
        if as_json {
            outln!("{}", serde_json::to_string(&d).expect("a diff serializes"));
        } else {
            d.print_text((&ma.name, &mb.name), (&ra, &rb));
        }
        Ok(status)
    };
    let tests = files.iter().map(PathBuf::as_path).enumerate();
    // The diff's objects carry no run information (two models ran), its errors neither.
    let walked = for_each_test(tests, ErrorOutput::json_if(as_json, None), &mut compare);
    let bad = walked.errors;
    if as_json {
        let summary = SummaryLine {
            summary: Summary {
                tests: files.len(),
                differ,
                verdict_changes: verdicts,
                partial,
                errors: bad,
                a: &ma.name,
                b: &mb.name,
            },
        };
        outln!(
            "{}",
            serde_json::to_string(&summary).expect("a summary serializes")
        );
    } else {
        let errors = if bad > 0 {
            format!(", {}", report::plural(bad, "error"))
        } else {
            String::new()
        };
        outln!(
            "{} tests: {differ} differ, {verdicts} verdict change(s), {partial} partial{errors} ({} against {})",
            files.len(),
            ma.name,
            mb.name
        );
    }
    walked.status
}
