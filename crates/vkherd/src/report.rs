//! Reporters: herd7-style text and JSON (semantics.md "Output"); the HTML page of a whole
//! run is in [`crate::html`].

use crate::json::{ErrorLine, ErrorObject, Limits, Pruned, RunInfo, State, Stats, TestReport};
use crate::{Diagnostic, Options, Report, Verdict};
use serde::ser::{SerializeMap, SerializeSeq, Serializer};
use serde::Serialize;
use std::io::Write;
use vkherd_enumerate::StateInfo;
use vkherd_model::Quantifier;

/// herd7's word after the test name, and the quantifier as printed in `Condition`.
pub(crate) fn quantifier_words(report: &Report) -> (&'static str, &'static str) {
    match report.header.quantifier() {
        Quantifier::Exists => ("Allowed", "exists"),
        Quantifier::NotExists => ("Forbidden", "~exists"),
        Quantifier::Forall => ("Required", "forall"),
    }
}

/// The condition text (`(1:r0=1 /\ 1:r1=0)`; `(true)` without a condition).
fn condition_text(report: &Report) -> String {
    match &report.header.condition {
        Some(c) => c.text.clone(),
        None => "(true)".to_string(),
    }
}

/// One state line: `1:r0=0; x=1;` then, with what is known of the state, its marks
/// ([`marks`]).
pub fn state_line(report: &Report, values: &[i64], info: Option<&StateInfo>) -> String {
    let mut out = String::new();
    push_state_line(&mut out, &report.header.columns, values, info);
    out
}

/// A state's marks, in the order they are printed: `# racy` (only executions that raise
/// the data race reach it), `# flagged` (only executions that raise some other flag of
/// the model, not all the data race: a model with other flags, docs/semantics.md) and
/// `# thin-air` (only executions with thin-air values).
pub fn marks(info: &StateInfo) -> [(&'static str, bool); 3] {
    [
        ("# racy", racy_only(info)),
        ("# flagged", flagged_only(info)),
        ("# thin-air", !info.not_thin_air),
    ]
}

/// The `# racy` mark: only executions that raise the data race reach the state.
pub fn racy_only(info: &StateInfo) -> bool {
    !info.race_free
}

/// The `# flagged` mark: only executions that raise a flag reach the state, and some of
/// them not the data race (else the state is `# racy`).
pub fn flagged_only(info: &StateInfo) -> bool {
    info.race_free && !info.unflagged
}

fn push_state_line(out: &mut String, names: &[String], values: &[i64], info: Option<&StateInfo>) {
    use std::fmt::Write as _;
    let mut first = true;
    for (name, v) in names.iter().zip(values) {
        if !first {
            out.push(' ');
        }
        first = false;
        let _ = write!(out, "{name}={v};");
    }
    for (mark, on) in info.map(marks).into_iter().flatten() {
        if on {
            if !first {
                out.push(' ');
            }
            first = false;
            out.push_str(mark);
        }
    }
}

/// `Always`, `Never` or `Sometimes`, from the counts. A partial run (`complete` false)
/// settles only `Sometimes` (counts only grow); its `Always` or `Never` could still turn into
/// `Sometimes`, so it is `?`.
fn observation(positive: u64, negative: u64, complete: bool) -> &'static str {
    match (positive, negative) {
        (0, _) if complete => "Never",
        (_, 0) if complete => "Always",
        (0, _) | (_, 0) => "?",
        _ => "Sometimes",
    }
}

/// The verdict line of the text report: `Ok` or `No` when the verdict is final, `??` (the
/// word herd7's log tools use for a result they cannot tell) when a partial run left it
/// open, so that no log reader takes the verdict of the states found so far for a final one
/// (docs/cli.md "Text output").
pub const OPEN_VERDICT: &str = "??";

/// `Ok` or `No`.
pub fn verdict_word(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Ok => "Ok",
        Verdict::No => "No",
    }
}

/// What the `Partial` line says about the verdict.
fn partial_verdict_text(report: &Report) -> String {
    if report.verdict_final() {
        "the verdict above is final (settled by the states found); only the states and counts are incomplete".to_string()
    } else {
        format!(
            "the verdict is open ({OPEN_VERDICT} above): the executions found so far give {}, and one not yet examined could change it; the states and counts above are incomplete",
            verdict_word(report.verdict)
        )
    }
}

/// The herd7-style report of one test.
pub fn herd_text(report: &Report) -> String {
    herd_text_with(report, true)
}

/// The report with or without the `# racy` / `# flagged` / `# thin-air` marks on state
/// lines (herd7 prints none; its log tools may not read them).
pub fn herd_text_with(report: &Report, marks: bool) -> String {
    let mut out = Vec::new();
    write_herd_text(&mut out, report, marks).expect("writing to memory");
    String::from_utf8(out).expect("the report is UTF-8")
}

/// Writes the report to `w` as it is made: a partial run of a big test can have hundreds
/// of thousands of states, and building them in memory first costs time past `--timeout`.
pub fn write_herd_text(w: &mut dyn Write, report: &Report, marks: bool) -> std::io::Result<()> {
    let o = &report.outcomes;
    let (kind, quant) = quantifier_words(report);
    let name = &report.header.name;
    writeln!(w, "Test {name} {kind}")?;
    // --speedcheck fast stops at a witness: which one depends on scheduling, so no states
    // are listed (the output stays the same whatever the thread count).
    let listed = if report.states_absent {
        None
    } else {
        writeln!(w, "States {}", o.states.len())?;
        Some(&o.states)
    };
    let names = &report.header.columns;
    let mut line = String::new();
    for (values, info) in listed.into_iter().flatten() {
        line.clear();
        push_state_line(&mut line, names, values, marks.then_some(info));
        line.push('\n');
        w.write_all(line.as_bytes())?;
    }
    let mut out = String::new();
    out.push_str(if report.verdict_final() {
        verdict_word(report.verdict)
    } else {
        OPEN_VERDICT
    });
    out.push('\n');
    // Counts that are not exact are shown as `?`.
    let (pos, neg) = if report.counts_absent {
        ("?".to_string(), "?".to_string())
    } else {
        (o.positive.to_string(), o.negative.to_string())
    };
    out.push_str(&format!("Witnesses\nPositive: {pos} Negative: {neg}\n"));
    // herd7's one line per flag raised, under the flag's name (data-race first).
    for flag in o.flags.iter().filter(|_| !report.counts_absent) {
        out.push_str(&format!("Flag {flag}\n"));
    }
    out.push_str(&format!("Condition {quant} {}\n", condition_text(report)));
    // With --speedcheck only the executions that matter are kept, so Always/Sometimes/
    // Never is not known; with --states-only it follows from which states satisfy the
    // condition.
    let complete = report.stats.stopped.is_none();
    let word = if report.speedcheck != crate::Speedcheck::Off {
        "?"
    } else if report.counts_absent {
        let sat = o.states.values().filter(|i| i.satisfies).count();
        observation(sat as u64, (o.states.len() - sat) as u64, complete)
    } else {
        observation(o.positive, o.negative, complete)
    };
    out.push_str(&format!("Observation {name} {word} {pos} {neg}\n"));
    if let Some(reason) = report.stats.stopped {
        out.push_str(&format!(
            "Partial {name}: {}; {}\n",
            crate::stop_text(reason, report.stats.candidates),
            partial_verdict_text(report)
        ));
    }
    if report.bounded_empty {
        out.push_str(&format!(
            "Bounded {name}: no execution completes within the unroll bound; raise it, e.g. --unroll {}, or check that every loop can exit\n",
            crate::raised_unroll(report.unroll)
        ));
    }
    // The liveness check comes last: everything before it is the safety report, the same
    // with or without --liveness.
    if let Some(l) = &report.liveness {
        out.push_str(&l.text);
    }
    w.write_all(out.as_bytes())
}

/// herd7's `Time NAME SECONDS` line (only with `--time`: it is not deterministic).
pub fn time_line(report: &Report) -> String {
    format!("Time {} {:.2}\n", report.header.name, report.seconds)
}

/// The run information of a test's report: that of the model that judged it (without
/// `--model`, an OPENCL test's is opencl with its variants), as the report carries it.
pub fn run_info_of(report: &Report, opts: &Options) -> RunInfo {
    match &report.model {
        Some(m) => run_info_of_model(m, opts),
        None => run_info(opts),
    }
}

/// The run information of a test judged by `model` ([`crate::ResolvedModel`]), for
/// when there is no report (the run failed).
pub fn run_info_of_model(model: &crate::ResolvedModel, opts: &Options) -> RunInfo {
    info(model.name(), model.variants().to_vec(), &opts.run)
}

/// What every JSON object of a run carries, so that an archived result says how it was
/// made: vkherd's version, the model, its variants, the unroll bound and the limits. For
/// the run as a whole (error objects, summaries, the HTML page's header): the model the
/// command line chose, whose name and variants are also those of its Vulkan tests.
pub fn run_info(opts: &Options) -> RunInfo {
    info(
        opts.model.spec.name(),
        opts.model.spec.variants_on(),
        &opts.run,
    )
}

fn info(model: String, variants: Vec<String>, run: &crate::RunConfig) -> RunInfo {
    RunInfo {
        vkherd: crate::VERSION.to_string(),
        model,
        variants,
        unroll: run.unroll,
        limits: Limits {
            max_candidates: run.max_candidates,
            timeout_seconds: run.timeout.map(|t| t.as_secs_f64()),
        },
        no_thin_air: run.no_thin_air,
        naive: run.naive,
    }
}

/// The JSON object of a file that failed (unreadable, or an error at a place in it): the
/// same run information as a report (none where two models ran), and `error` instead of
/// the results.
pub fn json_error(file: &str, error: &JsonError<'_>, info: Option<&RunInfo>) -> String {
    let error = match error {
        JsonError::At(d) => {
            let (line, column) = (d.span.line.max(1), d.span.column.max(1));
            ErrorObject {
                location: format!("{file}:{line}:{column}"),
                line: Some(line),
                column: Some(column),
                message: d.message.clone(),
            }
        }
        JsonError::File(message) => ErrorObject {
            location: file.to_string(),
            line: None,
            column: None,
            message: message.clone(),
        },
    };
    let line = ErrorLine {
        file: file.to_string(),
        error,
        run: info.cloned(),
    };
    serde_json::to_string(&line).expect("an error object serializes")
}

/// What went wrong with a file, for [`json_error`].
pub enum JsonError<'a> {
    /// An error at a line and column of the file.
    At(&'a Diagnostic),
    /// The file as a whole (it could not be read).
    File(String),
}

/// The JSON object of one test (one line), ending with the run information.
pub fn json(report: &Report, file: &str, info: Option<&RunInfo>) -> String {
    let mut out = Vec::new();
    write_json(&mut out, report, file, info).expect("writing to memory");
    String::from_utf8(out).expect("JSON is UTF-8")
}

/// Writes the JSON object of one test to `w` (one line, no newline).
pub fn write_json(
    w: &mut dyn Write,
    report: &Report,
    file: &str,
    info: Option<&RunInfo>,
) -> std::io::Result<()> {
    write_object(w, &json_object(report, file, info))
}

/// Writes a test's JSON object to `w` (one line, no newline). serde_json writes token by
/// token: a buffer of its own keeps those small writes off `w`'s dynamic calls.
pub fn write_object(w: &mut dyn Write, object: &TestReport<StatesOf<'_>>) -> std::io::Result<()> {
    let mut buffered = std::io::BufWriter::with_capacity(1 << 16, w);
    serde_json::to_writer(&mut buffered, object).map_err(std::io::Error::other)?;
    buffered.flush()
}

/// The JSON object of one test. Its states are a view of the report's, written as they
/// are serialized: a partial run can have hundreds of thousands of them, and building
/// them first cost more than the search.
pub fn json_object<'a>(
    report: &'a Report,
    file: &str,
    info: Option<&RunInfo>,
) -> TestReport<StatesOf<'a>> {
    let o = &report.outcomes;
    let s = &report.stats;
    let h = &report.header;
    let count = |n: u64| (!report.counts_absent).then_some(n);
    TestReport {
        file: Some(file.to_string()),
        name: h.name.clone(),
        description: h.description.clone(),
        kind: h.quantifier().into(),
        verdict: report.verdict,
        condition: condition_text(report),
        states: (!report.states_absent).then_some(StatesOf(report)),
        positive: count(o.positive),
        negative: count(o.negative),
        flag_data_race: (!report.counts_absent).then_some(o.data_race()),
        flags: (!report.counts_absent && o.other_flags())
            .then(|| o.flags.iter().map(|f| f.name().to_string()).collect()),
        speedcheck: report.speedcheck.into(),
        notes: report.notes.clone(),
        partial: s.stopped.is_some(),
        verdict_final: report.verdict_final(),
        bounded_empty: report.bounded_empty,
        stats: Some(Stats {
            candidates: s.candidates,
            consistent: o.consistent,
            pruned: Pruned(s.pruned),
            thin_air: o.thin_air,
            deadlocked_paths: s.deadlocked_paths,
            dropped_paths: s.dropped_paths,
            seconds: Some(report.seconds),
        }),
        liveness: report.liveness.as_ref().map(|l| l.json.clone()),
        run: info.cloned(),
        shard: None,
    }
}

/// The states of a report as the JSON lists them ([`State`]s), serialized straight from
/// its outcomes.
#[derive(Debug, Clone, Copy)]
pub struct StatesOf<'a>(&'a Report);

impl Serialize for StatesOf<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let r = self.0;
        let columns = &r.header.columns;
        let mut seq = s.serialize_seq(Some(r.outcomes.states.len()))?;
        for (values, info) in &r.outcomes.states {
            seq.serialize_element(&State {
                values: ValuesOf(columns, values),
                racy_only: racy_only(info),
                flagged_only: flagged_only(info),
                thin_air_only: !info.not_thin_air,
                count: (!r.counts_absent).then_some(info.count),
            })?;
        }
        seq.end()
    }
}

/// A state's values as the JSON writes them ([`crate::json::Values`]): column names and
/// values side by side.
struct ValuesOf<'a>(&'a [String], &'a [i64]);

impl Serialize for ValuesOf<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.1.len()))?;
        for (name, v) in self.0.iter().zip(self.1) {
            m.serialize_entry(name, v)?;
        }
        m.end()
    }
}

/// A count for people: exact up to a million, then in scientific notation (`3.52e18`);
/// `> 3.40e38` when the count saturated.
pub fn readable_count(n: u128) -> String {
    if n == u128::MAX {
        format!("> {:.2e}", n as f64)
    } else if n < 1_000_000 {
        n.to_string()
    } else {
        format!("{:.2e}", n as f64)
    }
}

/// The `--stats` line of one test (stderr): counts in words, large estimates in
/// scientific notation.
pub fn stats_line(report: &Report, file: &str) -> String {
    let s = &report.stats;
    let o = &report.outcomes;
    let thin_air_note = if o.consistent > s.candidates {
        " (more than candidates: a candidate with thin-air values has one execution per value solution)"
    } else {
        ""
    };
    format!(
        "Stats {file}: {} examined, {} cut by pruning (rf completions, estimated), {} with values contradicting a branch, {}{thin_air_note}, {}, {} deadlocked, {} dropped by --unroll, {:.6} s",
        plural(s.candidates, "candidate"),
        readable_count(s.pruned),
        plural(s.value_mismatch, "candidate"),
        plural(o.consistent, "consistent execution"),
        plural(o.thin_air, "thin-air execution"),
        plural(s.deadlocked_paths, "path combination"),
        plural(s.dropped_paths, "path"),
        report.seconds
    )
}

/// `1 file`, `2 files`.
pub fn plural(n: u64, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_counts_read_in_scientific_notation_and_never_saturate_at_64_bits() {
        assert_eq!(readable_count(999_999), "999999");
        assert_eq!(readable_count(3_520_000_000_000_000_000), "3.52e18");
        // Past 2^64 the count goes on (a u64 would have stuck at 1.84e19).
        assert_eq!(readable_count(1u128 << 70), "1.18e21");
        assert_eq!(readable_count(u128::MAX), "> 3.40e38");
        let json = |n| serde_json::to_string(&Pruned(n)).unwrap();
        assert_eq!(json(5), "5");
        assert_eq!(json((1 << 53) - 1), "9007199254740991");
        // 2^70 = 1180591620717411303424.
        assert_eq!(json(1u128 << 70), "1.1805916207174113e+21");
    }

    #[test]
    fn plurals() {
        assert_eq!(plural(1, "file"), "1 file");
        assert_eq!(plural(0, "file"), "0 files");
        assert_eq!(plural(2, "test"), "2 tests");
    }
}
