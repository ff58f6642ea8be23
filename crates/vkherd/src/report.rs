//! Reporters: herd7-style text and JSON (semantics.md "Output"); the HTML page of a whole
//! run is in [`crate::html`].

use crate::{Diagnostic, Options, Report, Verdict};
use serde_json::{json, Map, Value};
use std::io::Write;
use vkherd_model::Quantifier;

/// herd7's word after the test name, and the quantifier as printed in `Condition`.
pub(crate) fn quantifier_words(report: &Report) -> (&'static str, &'static str) {
    match report.program.condition.as_ref().map(|c| c.quantifier) {
        None | Some(Quantifier::Exists) => ("Allowed", "exists"),
        Some(Quantifier::NotExists) => ("Forbidden", "~exists"),
        Some(Quantifier::Forall) => ("Required", "forall"),
    }
}

/// The condition text (`(1:r0=1 /\ 1:r1=0)`; `(true)` without a condition).
fn condition_text(report: &Report) -> String {
    match &report.program.condition {
        Some(c) => c.text.clone(),
        None => "(true)".to_string(),
    }
}

/// One state line: `1:r0=0; x=1;` then ` # racy` / ` # thin-air` marks.
pub fn state_line(report: &Report, values: &[i64], racy_only: bool, thin_air_only: bool) -> String {
    let mut out = String::new();
    push_state_line(
        &mut out,
        &column_names(report),
        values,
        racy_only,
        thin_air_only,
    );
    out
}

/// The names of the state columns (`1:r0`, `x`), computed once per report: a partial run
/// of a big test can have hundreds of thousands of states to print before its time is up.
pub(crate) fn column_names(report: &Report) -> Vec<String> {
    let p = &report.program;
    p.observed.iter().map(|o| p.observable_name(*o)).collect()
}

fn push_state_line(
    out: &mut String,
    names: &[String],
    values: &[i64],
    racy_only: bool,
    thin_air_only: bool,
) {
    use std::fmt::Write as _;
    let mut first = true;
    for (name, v) in names.iter().zip(values) {
        if !first {
            out.push(' ');
        }
        first = false;
        let _ = write!(out, "{name}={v};");
    }
    for (mark, on) in [("# racy", racy_only), ("# thin-air", thin_air_only)] {
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

/// The report with or without the `# racy` / `# thin-air` marks on state lines (herd7
/// prints none; its log tools may not read them).
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
    let name = &report.program.name;
    writeln!(w, "Test {name} {kind}")?;
    // --speedcheck fast stops at a witness: which one depends on scheduling, so no states
    // are listed (the output stays the same whatever the thread count).
    let listed = if report.states_absent {
        None
    } else {
        writeln!(w, "States {}", o.states.len())?;
        Some(&o.states)
    };
    let names = column_names(report);
    let mut line = String::new();
    for (values, info) in listed.into_iter().flatten() {
        line.clear();
        push_state_line(
            &mut line,
            &names,
            values,
            marks && !info.race_free,
            marks && !info.not_thin_air,
        );
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
    if o.flag_data_race && !report.counts_absent {
        out.push_str("Flag data-race\n");
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
    format!("Time {} {:.2}\n", report.program.name, report.seconds)
}

/// The run information of `program`'s report: that of the model that judges it
/// ([`crate::judge`]: without `--model`, an OPENCL test's is opencl with its variants).
pub fn run_info_for(program: &crate::LoweredProgram, opts: &Options) -> Map<String, Value> {
    match crate::judge::judge(program.dialect, opts) {
        Ok(judge) => run_info(&judge.opts),
        Err(_) => run_info(opts),
    }
}

/// What every JSON object of a run carries, so that an archived result says how it was
/// made: vkherd's version, the model, its variants, the unroll bound and the limits.
pub fn run_info(opts: &Options) -> Map<String, Value> {
    let (model, variants) = (
        crate::judge::model_name(opts),
        crate::judge::variants_on(opts),
    );
    let mut m = Map::new();
    m.insert("vkherd".into(), json!(crate::VERSION));
    m.insert("model".into(), json!(model));
    m.insert("variants".into(), json!(variants));
    m.insert("unroll".into(), json!(opts.unroll));
    m.insert(
        "limits".into(),
        json!({
            "max_candidates": opts.max_candidates,
            "timeout_seconds": opts.timeout.map(|t| t.as_secs_f64()),
        }),
    );
    m.insert("no_thin_air".into(), json!(opts.no_thin_air));
    m.insert("naive".into(), json!(opts.naive));
    m
}

/// The JSON object of a file that failed (unreadable, or an error at a place in it): the
/// same run information as a report, and `error` instead of the results.
pub fn json_error(file: &str, error: &JsonError<'_>, info: &Map<String, Value>) -> String {
    let error = match error {
        JsonError::At(d) => json!({
            "location": format!("{file}:{}:{}", d.span.line.max(1), d.span.column.max(1)),
            "line": d.span.line.max(1),
            "column": d.span.column.max(1),
            "message": d.message,
        }),
        JsonError::File(message) => json!({
            "location": file,
            "line": null,
            "column": null,
            "message": message,
        }),
    };
    let mut m = Map::new();
    m.insert("file".into(), json!(file));
    m.insert("error".into(), error);
    m.extend(info.clone());
    Value::Object(m).to_string()
}

/// What went wrong with a file, for [`json_error`].
pub enum JsonError<'a> {
    /// An error at a line and column of the file.
    At(&'a Diagnostic),
    /// The file as a whole (it could not be read).
    File(String),
}

/// The JSON object of one test (one line), ending with the run information.
pub fn json(report: &Report, file: &str, info: &Map<String, Value>) -> String {
    let mut out = Vec::new();
    write_json(&mut out, report, file, info).expect("writing to memory");
    String::from_utf8(out).expect("JSON is UTF-8")
}

/// Writes the JSON object of one test to `w` (one line, no newline). The states are
/// written directly rather than built as a serde_json tree: a partial run can have
/// hundreds of thousands of them, and the tree cost more than the search.
pub fn write_json(
    w: &mut dyn Write,
    report: &Report,
    file: &str,
    info: &Map<String, Value>,
) -> std::io::Result<()> {
    let o = &report.outcomes;
    let (_, quant) = quantifier_words(report);
    let s = &report.stats;
    let head = json!({
        "file": file,
        "name": report.program.name,
        "description": report.program.description,
        "kind": quant,
        "verdict": verdict_word(report.verdict),
        "condition": condition_text(report),
    });
    let count = |n: u64| {
        if report.counts_absent {
            Value::Null
        } else {
            json!(n)
        }
    };
    let mut tail = json!({
        "positive": count(o.positive),
        "negative": count(o.negative),
        "flag_data_race": if report.counts_absent { Value::Null } else { json!(o.flag_data_race) },
        "speedcheck": match report.speedcheck {
            crate::Speedcheck::Off => "off",
            crate::Speedcheck::True => "true",
            crate::Speedcheck::Fast => "fast",
        },
        "notes": report.notes,
        "partial": s.stopped.is_some(),
        "verdict_final": report.verdict_final(),
        "bounded_empty": report.bounded_empty,
        "stats": {
            "candidates": s.candidates,
            "consistent": o.consistent,
            "pruned": pruned_json(s.pruned),
            "thin_air": o.thin_air,
            "deadlocked_paths": s.deadlocked_paths,
            "dropped_paths": s.dropped_paths,
            "seconds": report.seconds,
        },
    });
    if let Value::Object(m) = &mut tail {
        if let Some(l) = &report.liveness {
            m.insert("liveness".into(), l.json.clone());
        }
        m.extend(info.clone());
    }
    // `{head...}` and `{tail...}` joined around the states: `{head...,"states":[..],tail...}`.
    let (head, tail) = (head.to_string(), tail.to_string());
    w.write_all(&head.as_bytes()[..head.len() - 1])?;
    if report.states_absent {
        w.write_all(b",\"states\":null,")?;
        return w.write_all(&tail.as_bytes()[1..]);
    }
    w.write_all(b",\"states\":[")?;
    let names: Vec<String> = column_names(report)
        .iter()
        .map(|n| Value::from(n.as_str()).to_string())
        .collect();
    let mut state = String::new();
    for (k, (values, info)) in o.states.iter().enumerate() {
        use std::fmt::Write as _;
        state.clear();
        if k > 0 {
            state.push(',');
        }
        state.push_str("{\"values\":{");
        for (c, (name, v)) in names.iter().zip(values).enumerate() {
            if c > 0 {
                state.push(',');
            }
            let _ = write!(state, "{name}:{v}");
        }
        let _ = write!(
            state,
            "}},\"racy_only\":{},\"thin_air_only\":{},\"count\":{}}}",
            !info.race_free,
            !info.not_thin_air,
            count(info.count)
        );
        w.write_all(state.as_bytes())?;
    }
    w.write_all(b"],")?;
    w.write_all(&tail.as_bytes()[1..])
}

/// The pruned count in JSON: exact below 2^53, where a JSON reader's doubles are exact;
/// above, the nearest double (it is an estimate anyway).
pub fn pruned_json(pruned: u128) -> Value {
    if pruned < 1 << 53 {
        json!(pruned as u64)
    } else {
        json!(pruned as f64)
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
        assert_eq!(pruned_json(5), json!(5));
        assert_eq!(pruned_json(1u128 << 70), json!((1u128 << 70) as f64));
    }

    #[test]
    fn plurals() {
        assert_eq!(plural(1, "file"), "1 file");
        assert_eq!(plural(0, "file"), "0 files");
        assert_eq!(plural(2, "test"), "2 tests");
    }
}
