//! Reporters: herd7-style text and JSON (semantics.md "Output").

use crate::{Report, Verdict};
use serde_json::{json, Map, Value};
use vkherd_model::Quantifier;

/// herd7's word after the test name, and the quantifier as printed in `Condition`.
fn quantifier_words(report: &Report) -> (&'static str, &'static str) {
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
    let mut items: Vec<String> = report
        .program
        .observed
        .iter()
        .zip(values)
        .map(|(o, v)| format!("{}={};", report.program.observable_name(*o), v))
        .collect();
    if racy_only {
        items.push("# racy".into());
    }
    if thin_air_only {
        items.push("# thin-air".into());
    }
    items.join(" ")
}

/// `Always`, `Never` or `Sometimes`, from the counts.
fn observation(positive: u64, negative: u64) -> &'static str {
    if positive == 0 {
        "Never"
    } else if negative == 0 {
        "Always"
    } else {
        "Sometimes"
    }
}

/// The herd7-style report of one test.
pub fn herd_text(report: &Report) -> String {
    let o = &report.outcomes;
    let (kind, quant) = quantifier_words(report);
    let name = &report.program.name;
    let mut out = format!("Test {name} {kind}\n");
    // --speedcheck fast stops at a witness: which one depends on scheduling, so no states
    // are listed (the output stays the same whatever the thread count).
    if !report.states_absent {
        out.push_str(&format!("States {}\n", o.states.len()));
        for (values, info) in &o.states {
            out.push_str(&state_line(
                report,
                values,
                !info.race_free,
                !info.not_thin_air,
            ));
            out.push('\n');
        }
    }
    out.push_str(match report.verdict {
        Verdict::Ok => "Ok\n",
        Verdict::No => "No\n",
    });
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
    let word = if report.speedcheck != crate::Speedcheck::Off {
        "?"
    } else if report.counts_absent {
        let sat = o.states.values().filter(|i| i.satisfies).count();
        observation(sat as u64, (o.states.len() - sat) as u64)
    } else {
        observation(o.positive, o.negative)
    };
    out.push_str(&format!("Observation {name} {word} {pos} {neg}\n"));
    if let Some(reason) = report.stats.stopped {
        let what = if report.verdict_final() {
            "the verdict above is final (settled by the states found); only the states and counts are incomplete"
        } else {
            "the states and counts above are incomplete"
        };
        out.push_str(&format!(
            "Partial {name}: {}; {what}\n",
            crate::stop_text(reason, report.stats.candidates)
        ));
    }
    out
}

/// herd7's `Time NAME SECONDS` line (only with `--time`: it is not deterministic).
pub fn time_line(report: &Report) -> String {
    format!("Time {} {:.2}\n", report.program.name, report.seconds)
}

/// The JSON object of one test (one line).
pub fn json(report: &Report, file: &str) -> String {
    json_value(report, file).to_string()
}

/// The JSON object of one test.
pub fn json_value(report: &Report, file: &str) -> Value {
    let o = &report.outcomes;
    let (_, quant) = quantifier_words(report);
    let states: Vec<Value> = o
        .states
        .iter()
        .map(|(values, info)| {
            let mut m = Map::new();
            for (obs, v) in report.program.observed.iter().zip(values) {
                m.insert(report.program.observable_name(*obs), json!(v));
            }
            json!({
                "values": Value::Object(m),
                "racy_only": !info.race_free,
                "thin_air_only": !info.not_thin_air,
                "count": if report.counts_absent { Value::Null } else { json!(info.count) },
            })
        })
        .collect();
    let s = &report.stats;
    let v = json!({
        "file": file,
        "name": report.program.name,
        "description": report.program.description,
        "kind": quant,
        "verdict": match report.verdict { Verdict::Ok => "Ok", Verdict::No => "No" },
        "condition": condition_text(report),
        "states": if report.states_absent { Value::Null } else { Value::Array(states) },
        "positive": if report.counts_absent { Value::Null } else { json!(o.positive) },
        "negative": if report.counts_absent { Value::Null } else { json!(o.negative) },
        "flag_data_race": if report.counts_absent { Value::Null } else { json!(o.flag_data_race) },
        "speedcheck": match report.speedcheck {
            crate::Speedcheck::Off => "off",
            crate::Speedcheck::True => "true",
            crate::Speedcheck::Fast => "fast",
        },
        "notes": report.notes,
        "partial": s.stopped.is_some(),
        "verdict_final": report.verdict_final(),
        "stats": {
            "candidates": s.candidates,
            "consistent": o.consistent,
            "pruned": s.pruned,
            "thin_air": o.thin_air,
            "deadlocked_paths": s.deadlocked_paths,
            "dropped_paths": s.dropped_paths,
            "seconds": report.seconds,
        },
    });
    v
}
