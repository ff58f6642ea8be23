//! `vkherd compare OLD NEW`: two logs (text or JSON) test by test, like herd7's
//! mcompare7: verdict changes, states gained and lost, verdicts left open, time ratio.
//! Exit code 0 when no verdict or state differs, 1 when something does, 3 when a
//! verdict is open (`??`) in either log, 2 when a log cannot be read.

use crate::cli::exit::ExitStatus;
use serde::Serialize;
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

pub fn run(old: &Path, new: &Path, as_json: bool) -> ExitStatus {
    let (a, b) = match (read(old), read(new)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("{e}");
            return ExitStatus::BadInput;
        }
    };
    let c = compare(&a, &b);
    warn_duplicates(old, &c.duplicate_names.0);
    warn_duplicates(new, &c.duplicate_names.1);
    if as_json {
        print_json(&c);
    } else {
        print_text(&c, old, new);
    }
    let differs =
        c.common.iter().any(|d| d.differs()) || !c.only_old.is_empty() || !c.only_new.is_empty();
    let differs = if differs {
        ExitStatus::Fail
    } else {
        ExitStatus::Ok
    };
    // A verdict open in either log settles nothing: partial, as the run that wrote it.
    let open = if c.common.iter().any(|d| d.is_open()) {
        ExitStatus::Partial
    } else {
        ExitStatus::Ok
    };
    differs.combine(open)
}

/// Where a test's verdict is open (`??`), in words, for the line that marks it.
fn open_where(
    d: &vkherd::logs::TestDiff,
    old: &dyn std::fmt::Display,
    new: &dyn std::fmt::Display,
) -> String {
    match d.open {
        (true, true) => "both logs".to_string(),
        (true, false) => old.to_string(),
        _ => new.to_string(),
    }
}

/// A warning on stderr when several tests of a log share a name: how they are matched.
fn warn_duplicates(path: &Path, names: &[String]) {
    if names.is_empty() {
        return;
    }
    const SHOWN: usize = 5;
    let mut list = names[..names.len().min(SHOWN)].join(", ");
    if names.len() > SHOWN {
        list.push_str(", ...");
    }
    eprintln!(
        "warning: {}: {} carried by more than one test ({list}); tests are matched by file path where both logs name it, else by name and position (the k-th test of a name with the k-th of the other log)",
        path.display(),
        plural(names.len() as u64, "name"),
    );
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
        let label = &d.label;
        if let Some((x, y)) = &d.verdict {
            outln!("{label}: verdict {x} -> {y}{partial}");
        }
        for s in &d.lost {
            outln!("{label}: state lost: {s}{partial}");
        }
        for s in &d.gained {
            outln!("{label}: state gained: {s}{partial}");
        }
        if d.is_open() && d.verdict.is_none() {
            outln!(
                "{label}: verdict open ({}) in {}: a limit stopped the run before it was settled",
                vkherd::report::OPEN_VERDICT,
                open_where(d, &old, &new)
            );
        }
        if let (Some(r), (Some(x), Some(y))) = (d.time_ratio, d.seconds) {
            if x.max(y) >= MEANINGFUL_SECONDS && !(1.0 / SLOWER..=SLOWER).contains(&r) {
                outln!("{label}: time {x:.2} s -> {y:.2} s (x{r:.2})");
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
    let open = c.common.iter().filter(|d| d.is_open()).count();
    outln!(
        "Compare: {} in both, {} changed verdict, {} changed states, {open} with an open verdict ({}), {} only in {old}, {} only in {new}{time}",
        plural(c.common.len() as u64, "test"),
        verdicts,
        states,
        vkherd::report::OPEN_VERDICT,
        c.only_old.len(),
        c.only_new.len(),
    );
}

/// An (old, new) pair in JSON.
#[derive(Serialize)]
struct OldNew<T> {
    old: T,
    new: T,
}

impl<T: Clone> From<&(T, T)> for OldNew<T> {
    fn from((old, new): &(T, T)) -> Self {
        OldNew {
            old: old.clone(),
            new: new.clone(),
        }
    }
}

/// One test that differs, in JSON.
#[derive(Serialize)]
struct JsonDiff<'a> {
    name: &'a str,
    /// The name as the text output shows it (with the file or place for a shared name).
    label: &'a str,
    file: OldNew<Option<String>>,
    verdict: Option<OldNew<String>>,
    states_gained: &'a [String],
    states_lost: &'a [String],
    seconds: OldNew<Option<f64>>,
    time_ratio: Option<f64>,
    partial: bool,
    /// The verdict is open (`??`) in the old log, the new one.
    open: OldNew<bool>,
}

#[derive(Serialize)]
struct JsonSummary<'a> {
    common: usize,
    verdict_changes: usize,
    state_changes: usize,
    /// Tests whose verdict is open (`??`) in either log.
    open: usize,
    only_old: &'a [String],
    only_new: &'a [String],
    /// How many names more than one test carries, in each log.
    duplicate_names: OldNew<usize>,
    seconds: Option<OldNew<f64>>,
    time_ratio: Option<f64>,
}

#[derive(Serialize)]
struct JsonSummaryLine<'a> {
    summary: JsonSummary<'a>,
}

fn print_json(c: &Comparison) {
    for d in c.common.iter().filter(|d| d.differs() || d.is_open()) {
        let line = JsonDiff {
            name: &d.name,
            label: &d.label,
            file: (&d.files).into(),
            verdict: d.verdict.map(|(x, y)| OldNew {
                old: x.to_string(),
                new: y.to_string(),
            }),
            states_gained: &d.gained,
            states_lost: &d.lost,
            seconds: (&d.seconds).into(),
            time_ratio: d.time_ratio,
            partial: d.partial,
            open: (&d.open).into(),
        };
        outln!(
            "{}",
            serde_json::to_string(&line).expect("a diff serializes")
        );
    }
    let totals = total_times(c);
    let summary = JsonSummaryLine {
        summary: JsonSummary {
            common: c.common.len(),
            verdict_changes: c.common.iter().filter(|d| d.verdict.is_some()).count(),
            state_changes: c
                .common
                .iter()
                .filter(|d| !d.gained.is_empty() || !d.lost.is_empty())
                .count(),
            open: c.common.iter().filter(|d| d.is_open()).count(),
            only_old: &c.only_old,
            only_new: &c.only_new,
            duplicate_names: OldNew {
                old: c.duplicate_names.0.len(),
                new: c.duplicate_names.1.len(),
            },
            seconds: totals.map(|t| (&t).into()),
            time_ratio: totals.and_then(|(x, y)| (x > 0.0).then(|| y / x)),
        },
    };
    outln!(
        "{}",
        serde_json::to_string(&summary).expect("a summary serializes")
    );
}
