//! `vkherd compare OLD NEW`: two logs (text or JSON) test by test, like herd7's
//! mcompare7: verdict changes, states gained and lost, time ratio. Exit code 0 when no
//! verdict or state differs, 1 when something does, 2 when a log cannot be read.

use crate::cli::{EXIT_BAD_INPUT, EXIT_FAIL, EXIT_OK};
use serde_json::json;
use std::path::Path;
use vkherd::logs::{compare, parse_log, Comparison, Log};
use vkherd::report::plural;

/// Per-test time ratios outside [1/SLOWER, SLOWER] are listed (when both times are
/// long enough to mean something).
const SLOWER: f64 = 2.0;
const MEANINGFUL_SECONDS: f64 = 0.1;

fn read(path: &Path) -> Result<Log, String> {
    let bytes =
        std::fs::read(path).map_err(|e| format!("error: cannot read {}: {e}", path.display()))?;
    parse_log(&String::from_utf8_lossy(&bytes))
        .map_err(|e| format!("error: {}: {e}", path.display()))
}

pub fn run(old: &Path, new: &Path, as_json: bool) -> i32 {
    let (a, b) = match (read(old), read(new)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("{e}");
            return EXIT_BAD_INPUT;
        }
    };
    let c = compare(&a, &b);
    if as_json {
        print_json(&c);
    } else {
        print_text(&c, old, new);
    }
    let differs =
        c.common.iter().any(|d| d.differs()) || !c.only_old.is_empty() || !c.only_new.is_empty();
    if differs {
        EXIT_FAIL
    } else {
        EXIT_OK
    }
}

/// Sum of new and old times over the tests both logs time.
fn total_times(c: &Comparison) -> Option<(f64, f64)> {
    let both: Vec<(f64, f64)> = c
        .common
        .iter()
        .filter_map(|d| Some((d.seconds.0?, d.seconds.1?)))
        .collect();
    (!both.is_empty()).then(|| {
        both.iter()
            .fold((0.0, 0.0), |(x, y), (a, b)| (x + a, y + b))
    })
}

fn print_text(c: &Comparison, old: &Path, new: &Path) {
    let (old, new) = (old.display(), new.display());
    for d in &c.common {
        let partial = if d.partial { " (a partial run)" } else { "" };
        if let Some((x, y)) = &d.verdict {
            outln!("{}: verdict {x} -> {y}{partial}", d.name);
        }
        for s in &d.lost {
            outln!("{}: state lost: {s}{partial}", d.name);
        }
        for s in &d.gained {
            outln!("{}: state gained: {s}{partial}", d.name);
        }
        if let (Some(r), (Some(x), Some(y))) = (d.time_ratio, d.seconds) {
            if x.max(y) >= MEANINGFUL_SECONDS && !(1.0 / SLOWER..=SLOWER).contains(&r) {
                outln!("{}: time {x:.2} s -> {y:.2} s (x{r:.2})", d.name);
            }
        }
    }
    for name in &c.only_old {
        outln!("{name}: only in {old}");
    }
    for name in &c.only_new {
        outln!("{name}: only in {new}");
    }
    let verdicts = c.common.iter().filter(|d| d.verdict.is_some()).count();
    let states = c
        .common
        .iter()
        .filter(|d| !d.gained.is_empty() || !d.lost.is_empty())
        .count();
    let time = match total_times(c) {
        Some((x, y)) if x > 0.0 => format!(", time {x:.2} s -> {y:.2} s (x{:.2})", y / x),
        _ => String::new(),
    };
    outln!(
        "Compare: {} in both, {} changed verdict, {} changed states, {} only in {old}, {} only in {new}{time}",
        plural(c.common.len() as u64, "test"),
        verdicts,
        states,
        c.only_old.len(),
        c.only_new.len(),
    );
}

fn print_json(c: &Comparison) {
    for d in c.common.iter().filter(|d| d.differs()) {
        outln!(
            "{}",
            json!({
                "name": d.name,
                "verdict": d.verdict.as_ref().map(|(x, y)| json!({"old": x, "new": y})),
                "states_gained": d.gained,
                "states_lost": d.lost,
                "seconds": {"old": d.seconds.0, "new": d.seconds.1},
                "time_ratio": d.time_ratio,
                "partial": d.partial,
            })
        );
    }
    let totals = total_times(c);
    outln!(
        "{}",
        json!({"summary": {
            "common": c.common.len(),
            "verdict_changes": c.common.iter().filter(|d| d.verdict.is_some()).count(),
            "state_changes": c.common.iter().filter(|d| !d.gained.is_empty() || !d.lost.is_empty()).count(),
            "only_old": c.only_old,
            "only_new": c.only_new,
            "seconds": totals.map(|(x, y)| json!({"old": x, "new": y})),
            "time_ratio": totals.and_then(|(x, y)| (x > 0.0).then(|| y / x)),
        }})
    );
}
