//! Reading logs of runs back: herd-style text (vkherd's, herd7's or litmus7's) and
//! vkherd's JSON lines, into one entry per test in log order, and matching the tests of
//! two logs for `vkherd compare`.
//!
//! Tests are matched by file path where both logs name it (JSON logs, litmus7's
//! `% Results for FILE %` lines), then by name and position: the k-th test named N in one
//! log with the k-th test named N in the other. Two files may hold tests of the same name,
//! so a name alone never identifies a test (docs/cli.md "vkherd compare").

use crate::json::{ErrorLine, Line, TestReport, Values};
use crate::Verdict;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::fmt;

/// What a log says about a test's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LoggedVerdict {
    Ok,
    No,
    /// A partial run left the verdict open (`??` in text, `verdict_final: false` in JSON).
    Open,
    /// The file failed (a JSON `error` object).
    Error,
    /// The log gives no verdict line for the test.
    #[default]
    Missing,
}

impl fmt::Display for LoggedVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LoggedVerdict::Ok => "Ok",
            LoggedVerdict::No => "No",
            LoggedVerdict::Open => crate::report::OPEN_VERDICT,
            LoggedVerdict::Error => "error",
            LoggedVerdict::Missing => "none",
        })
    }
}

/// What a log says about one test.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LoggedTest {
    /// The test's name (a failed file's path, for a JSON `error` object).
    pub name: String,
    /// The file the log names for the test, if any.
    pub file: Option<String>,
    pub verdict: LoggedVerdict,
    /// The states, as their values only (`1:r0=0; x=1;`), without `# racy` marks.
    pub states: Vec<String>,
    /// Seconds, from a `Time` line or the JSON `stats.seconds`.
    pub seconds: Option<f64>,
    /// The run was stopped by a limit.
    pub partial: bool,
}

/// A log: its tests, in log order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Log {
    pub tests: Vec<LoggedTest>,
}

impl Log {
    /// The names that more than one test of the log carries, sorted.
    pub fn duplicate_names(&self) -> Vec<String> {
        let mut count: BTreeMap<&str, usize> = BTreeMap::new();
        for t in &self.tests {
            *count.entry(&t.name).or_default() += 1;
        }
        count
            .into_iter()
            .filter(|(_, n)| *n > 1)
            .map(|(name, _)| name.to_string())
            .collect()
    }
}

/// Why a log cannot be read. Lines are 1-based.
#[derive(Debug)]
pub enum LogError {
    /// A text log's `Test` line names no test.
    TestWithoutName { line: usize },
    /// A text log's `States` line comes before any `Test` line.
    StatesOutsideTest { line: usize },
    /// A text log's `States` line has no count.
    StatesWithoutCount { line: usize },
    /// The log ends before the `count` state lines of `test`.
    TooFewStates { test: String, count: usize },
    /// A line of a JSON log is no report, error object or summary.
    NotJson {
        line: usize,
        error: serde_json::Error,
    },
}

impl std::fmt::Display for LogError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LogError::TestWithoutName { line } => write!(f, "line {line}: `Test` without a name"),
            LogError::StatesOutsideTest { line } => {
                write!(f, "line {line}: `States` outside a test")
            }
            LogError::StatesWithoutCount { line } => {
                write!(f, "line {line}: `States` without a count")
            }
            LogError::TooFewStates { test, count } => {
                write!(f, "test {test}: fewer than {count} state lines")
            }
            LogError::NotJson { line, error } => write!(
                f,
                "line {line}: not a JSON report (expected an object with `name` and `verdict`, an `error` object or a `summary`): {error}"
            ),
        }
    }
}

impl std::error::Error for LogError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LogError::NotJson { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// Reads a log, text or JSON lines (told apart by the first non-blank character).
pub fn parse_log(text: &str) -> Result<Log, LogError> {
    if text.trim_start().starts_with('{') {
        parse_json_log(text)
    } else {
        parse_text_log(text)
    }
}

/// The values part of a state line (`1:r0=0; x=1;`), marks dropped.
fn state_values(line: &str) -> String {
    line.split('#').next().unwrap_or("").trim().to_string()
}

/// litmus7's `% Results for FILE %` line: the file of the test that follows.
fn results_for(line: &str) -> Option<&str> {
    let rest = line.trim().strip_prefix("% Results for ")?;
    Some(rest.strip_suffix('%').unwrap_or(rest).trim())
}

/// Reads herd-style reports. Lines outside a report (summaries, litmus7 chatter) are
/// skipped, as herd7's own log tools do.
pub fn parse_text_log(text: &str) -> Result<Log, LogError> {
    let mut log = Log::default();
    let mut lines = text.lines().enumerate().peekable();
    // The test whose report is being read (an index into `log.tests`).
    let mut current: Option<usize> = None;
    // The file a litmus7 log named for the next test.
    let mut next_file: Option<String> = None;
    while let Some((n, line)) = lines.next() {
        if let Some(file) = results_for(line) {
            next_file = Some(file.to_string());
            continue;
        }
        let mut words = line.split_whitespace();
        match words.next() {
            Some("Test") => {
                let name = words
                    .next()
                    .ok_or(LogError::TestWithoutName { line: n + 1 })?;
                current = Some(log.tests.len());
                log.tests.push(LoggedTest {
                    name: name.to_string(),
                    file: next_file.take(),
                    ..LoggedTest::default()
                });
            }
            Some("States") => {
                let t = current
                    .and_then(|c| log.tests.get_mut(c))
                    .ok_or(LogError::StatesOutsideTest { line: n + 1 })?;
                let count: usize = words
                    .next()
                    .and_then(|w| w.parse().ok())
                    .ok_or(LogError::StatesWithoutCount { line: n + 1 })?;
                let mut states = Vec::with_capacity(count.min(1 << 20));
                for _ in 0..count {
                    let (_, l) = lines.next().ok_or_else(|| LogError::TooFewStates {
                        test: t.name.clone(),
                        count,
                    })?;
                    // litmus7 logs put a count before `:>` or `*>`.
                    let l = l.split_once('>').map_or(l, |(_, rest)| rest);
                    states.push(state_values(l));
                }
                states.sort();
                t.states = states;
            }
            Some(v @ ("Ok" | "No" | crate::report::OPEN_VERDICT)) if words.next().is_none() => {
                if let Some(t) = current.and_then(|c| log.tests.get_mut(c)) {
                    t.verdict = match v {
                        "Ok" => LoggedVerdict::Ok,
                        "No" => LoggedVerdict::No,
                        _ => LoggedVerdict::Open,
                    };
                }
            }
            Some("Partial") => {
                if let Some(t) = current.and_then(|c| log.tests.get_mut(c)) {
                    t.partial = true;
                }
            }
            Some("Time") => {
                let name = words.next().unwrap_or("");
                let secs = words.next().and_then(|w| w.parse().ok());
                // herd7 writes `Time` at the end of the test's own report.
                if let Some(t) = current.and_then(|c| log.tests.get_mut(c)) {
                    if t.name == name {
                        t.seconds = secs;
                    }
                }
            }
            _ => {}
        }
    }
    Ok(log)
}

/// The state as a text log shows its values: `1:r0=0; x=1;`.
fn values_text(values: &Values) -> String {
    values
        .0
        .iter()
        .map(|(k, v)| format!("{k}={v};"))
        .collect::<Vec<_>>()
        .join(" ")
}

impl From<TestReport> for LoggedTest {
    fn from(r: TestReport) -> LoggedTest {
        let mut states: Vec<String> = r
            .states
            .iter()
            .flatten()
            .map(|s| values_text(&s.values))
            .collect();
        states.sort();
        LoggedTest {
            name: r.name,
            file: r.file,
            verdict: match (r.verdict_final, r.verdict) {
                (false, _) => LoggedVerdict::Open,
                (true, Verdict::Ok) => LoggedVerdict::Ok,
                (true, Verdict::No) => LoggedVerdict::No,
            },
            states,
            seconds: r.stats.and_then(|s| s.seconds),
            partial: r.partial,
        }
    }
}

/// Reads vkherd's JSON lines (`--json`): reports, and error objects for failed files.
pub fn parse_json_log(text: &str) -> Result<Log, LogError> {
    let mut log = Log::default();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let parsed = Line::parse(line).map_err(|error| LogError::NotJson { line: n + 1, error })?;
        match parsed {
            Line::Summary => {}
            Line::Error(ErrorLine { file, .. }) => log.tests.push(LoggedTest {
                name: file.clone(),
                file: Some(file),
                verdict: LoggedVerdict::Error,
                ..LoggedTest::default()
            }),
            Line::Report(r) => log.tests.push((*r).into()),
        }
    }
    Ok(log)
}

/// How one test differs between two logs.
#[derive(Debug, Clone, PartialEq)]
pub struct TestDiff {
    /// The test's name, with its file (or its place among the tests of that name) when
    /// the name is not unique: `MP (a/MP.litmus)`, `MP (2nd of 2)`.
    pub label: String,
    pub name: String,
    /// The files the two logs name for it.
    pub files: (Option<String>, Option<String>),
    /// (old, new) when the verdict changed.
    pub verdict: Option<(LoggedVerdict, LoggedVerdict)>,
    pub gained: Vec<String>,
    pub lost: Vec<String>,
    /// new / old, when both logs have times.
    pub time_ratio: Option<f64>,
    pub seconds: (Option<f64>, Option<f64>),
    /// Either run was partial (a difference may be only the limit's doing).
    pub partial: bool,
    /// (old, new): the log leaves the verdict open (`??`: a limit stopped the run before
    /// it was settled), so the same verdict in both logs is no agreement.
    pub open: (bool, bool),
}

impl TestDiff {
    /// Verdict or states differ.
    pub fn differs(&self) -> bool {
        self.verdict.is_some() || !self.gained.is_empty() || !self.lost.is_empty()
    }

    /// Either log leaves the verdict open.
    pub fn is_open(&self) -> bool {
        self.open.0 || self.open.1
    }
}

/// Two logs side by side.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Comparison {
    /// Every test in both logs, in the old log's order.
    pub common: Vec<TestDiff>,
    /// Labels of the tests in one log only.
    pub only_old: Vec<String>,
    pub only_new: Vec<String>,
    /// Names carried by more than one test, in each log.
    pub duplicate_names: (Vec<String>, Vec<String>),
}

/// Pairs the tests of two logs: (old index, new index), in the old log's order.
fn match_tests(old: &Log, new: &Log) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    let mut new_taken = vec![false; new.tests.len()];
    let mut old_taken = vec![false; old.tests.len()];
    // 1. By file path, where both logs name one (the same file twice: in order).
    let mut by_file: HashMap<&str, VecDeque<usize>> = HashMap::new();
    for (j, t) in new.tests.iter().enumerate() {
        if let Some(f) = &t.file {
            by_file.entry(f).or_default().push_back(j);
        }
    }
    for (i, t) in old.tests.iter().enumerate() {
        let found = t
            .file
            .as_deref()
            .and_then(|f| by_file.get_mut(f)?.pop_front());
        if let Some(j) = found {
            pairs.push((i, j));
            (old_taken[i], new_taken[j]) = (true, true);
        }
    }
    // 2. The others by name and position: the k-th left of a name with the k-th.
    let mut by_name: HashMap<&str, VecDeque<usize>> = HashMap::new();
    for (j, t) in new.tests.iter().enumerate() {
        if !new_taken[j] {
            by_name.entry(&t.name).or_default().push_back(j);
        }
    }
    for (i, t) in old.tests.iter().enumerate() {
        if old_taken[i] {
            continue;
        }
        if let Some(j) = by_name
            .get_mut(t.name.as_str())
            .and_then(VecDeque::pop_front)
        {
            pairs.push((i, j));
        }
    }
    pairs.sort_unstable();
    pairs
}

/// `1st`, `2nd`, `3rd`, `4th`, ...
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, x) if x != 11 => "st",
        (2, x) if x != 12 => "nd",
        (3, x) if x != 13 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// How each test of a log is named in `compare`'s output: its name, and when other tests
/// of the log share it, its file or its place among them.
fn labels(log: &Log, ambiguous: &dyn Fn(&str) -> bool) -> Vec<String> {
    let mut total: HashMap<&str, usize> = HashMap::new();
    for t in &log.tests {
        *total.entry(&t.name).or_default() += 1;
    }
    let mut seen: HashMap<&str, usize> = HashMap::new();
    log.tests
        .iter()
        .map(|t| {
            let k = seen.entry(&t.name).or_default();
            *k += 1;
            match &t.file {
                _ if !ambiguous(&t.name) => t.name.clone(),
                Some(f) if *f != t.name => format!("{} ({f})", t.name),
                _ => format!("{} ({} of {})", t.name, ordinal(*k), total[t.name.as_str()]),
            }
        })
        .collect()
}

pub fn compare(old: &Log, new: &Log) -> Comparison {
    let duplicate_names = (old.duplicate_names(), new.duplicate_names());
    let ambiguous = |name: &str| {
        duplicate_names.0.iter().any(|d| d == name) || duplicate_names.1.iter().any(|d| d == name)
    };
    let (old_labels, new_labels) = (labels(old, &ambiguous), labels(new, &ambiguous));
    let pairs = match_tests(old, new);
    let mut c = Comparison::default();
    let (mut old_matched, mut new_matched) =
        (vec![false; old.tests.len()], vec![false; new.tests.len()]);
    for &(i, j) in &pairs {
        (old_matched[i], new_matched[j]) = (true, true);
        let (a, b) = (&old.tests[i], &new.tests[j]);
        let lost = a
            .states
            .iter()
            .filter(|s| b.states.binary_search(s).is_err())
            .cloned()
            .collect();
        let gained = b
            .states
            .iter()
            .filter(|s| a.states.binary_search(s).is_err())
            .cloned()
            .collect();
        c.common.push(TestDiff {
            label: old_labels[i].clone(),
            name: a.name.clone(),
            files: (a.file.clone(), b.file.clone()),
            verdict: (a.verdict != b.verdict).then_some((a.verdict, b.verdict)),
            gained,
            lost,
            time_ratio: match (a.seconds, b.seconds) {
                (Some(x), Some(y)) if x > 0.0 => Some(y / x),
                _ => None,
            },
            seconds: (a.seconds, b.seconds),
            partial: a.partial || b.partial,
            open: (
                a.verdict == LoggedVerdict::Open,
                b.verdict == LoggedVerdict::Open,
            ),
        });
    }
    c.only_old = (0..old.tests.len())
        .filter(|&i| !old_matched[i])
        .map(|i| old_labels[i].clone())
        .collect();
    c.only_new = (0..new.tests.len())
        .filter(|&j| !new_matched[j])
        .map(|j| new_labels[j].clone())
        .collect();
    c.duplicate_names = duplicate_names;
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    const OLD: &str = "Test MP Allowed\nStates 2\n1:r0=0; # racy\n1:r0=1;\nOk\nWitnesses\nPositive: 1 Negative: 1\nCondition exists (1:r0=1)\nObservation MP Sometimes 1 1\nTime MP 0.50\n\nTest SB Allowed\nStates 1\n0:r0=0;\nNo\nWitnesses\nPositive: 0 Negative: 1\nCondition exists (0:r0=1)\nObservation SB Never 0 1\n\nSummary: 2 tests\n";

    fn test<'a>(log: &'a Log, name: &str) -> &'a LoggedTest {
        log.tests.iter().find(|t| t.name == name).unwrap()
    }

    #[test]
    fn text_logs_are_read_test_by_test() {
        let log = parse_text_log(OLD).unwrap();
        assert_eq!(log.tests.len(), 2);
        assert_eq!(test(&log, "MP").verdict, LoggedVerdict::Ok);
        assert_eq!(test(&log, "MP").states, ["1:r0=0;", "1:r0=1;"]);
        assert_eq!(test(&log, "MP").seconds, Some(0.5));
        assert_eq!(test(&log, "SB").seconds, None);
    }

    #[test]
    fn comparing_finds_verdict_changes_and_states_gained_and_lost() {
        let new = OLD
            .replace("1:r0=1;\nOk", "1:r0=2;\nNo")
            .replace("Time MP 0.50", "Time MP 1.00")
            .replace("Test SB", "Test SB2");
        let c = compare(&parse_log(OLD).unwrap(), &parse_log(&new).unwrap());
        assert_eq!(c.only_old, ["SB"]);
        assert_eq!(c.only_new, ["SB2"]);
        let mp = &c.common[0];
        assert_eq!(mp.verdict, Some((LoggedVerdict::Ok, LoggedVerdict::No)));
        assert_eq!(mp.lost, ["1:r0=1;"]);
        assert_eq!(mp.gained, ["1:r0=2;"]);
        assert_eq!(mp.time_ratio, Some(2.0));
    }

    #[test]
    fn json_logs_read_like_text_logs() {
        let json = r#"{"file":"a","name":"MP","verdict":"Ok","states":[{"values":{"1:r0":1},"racy_only":false},{"values":{"1:r0":0},"racy_only":true}],"partial":false,"stats":{"seconds":0.5}}
{"file":"b.litmus","error":{"location":"b.litmus:1:1","message":"m"}}"#;
        let log = parse_log(json).unwrap();
        let text = parse_log(OLD).unwrap();
        let mp = LoggedTest {
            file: None,
            ..test(&log, "MP").clone()
        };
        assert_eq!(&mp, test(&text, "MP"));
        assert_eq!(test(&log, "MP").file.as_deref(), Some("a"));
        assert_eq!(test(&log, "b.litmus").verdict, LoggedVerdict::Error);
    }

    #[test]
    fn an_open_verdict_is_read_as_open_from_text_and_json() {
        let text = OLD.replace("1:r0=1;\nOk\n", "1:r0=1;\n??\n");
        assert_eq!(
            test(&parse_log(&text).unwrap(), "MP").verdict,
            LoggedVerdict::Open
        );
        let json =
            r#"{"name":"MP","verdict":"No","states":[],"partial":true,"verdict_final":false}"#;
        let t = &parse_log(json).unwrap().tests[0];
        assert_eq!((t.verdict, t.partial), (LoggedVerdict::Open, true));
    }

    /// Each way a log cannot be read is its kind, at its line, worded as `compare`
    /// prints it.
    #[test]
    fn unreadable_logs_give_their_kind_and_line() {
        let text_err = |text: &str| parse_log(text).unwrap_err();
        let e = text_err("x\nTest\n");
        assert!(matches!(e, LogError::TestWithoutName { line: 2 }), "{e:?}");
        assert_eq!(e.to_string(), "line 2: `Test` without a name");
        let e = text_err("States 1\n");
        assert!(
            matches!(e, LogError::StatesOutsideTest { line: 1 }),
            "{e:?}"
        );
        assert_eq!(e.to_string(), "line 1: `States` outside a test");
        let e = text_err("Test MP\nStates many\n");
        assert!(
            matches!(e, LogError::StatesWithoutCount { line: 2 }),
            "{e:?}"
        );
        assert_eq!(e.to_string(), "line 2: `States` without a count");
        let e = text_err("Test MP\nStates 2\n1:r0=0;\n");
        assert!(
            matches!(&e, LogError::TooFewStates { test, count: 2 } if test == "MP"),
            "{e:?}"
        );
        assert_eq!(e.to_string(), "test MP: fewer than 2 state lines");
        let e = text_err("{\"summary\":{}}\n\n{\"name\":3}\n");
        assert!(matches!(e, LogError::NotJson { line: 3, .. }), "{e:?}");
        assert!(
            e.to_string().starts_with("line 3: not a JSON report (expected an object with `name` and `verdict`, an `error` object or a `summary`): "),
            "{e}"
        );
    }

    #[test]
    fn litmus7_results_lines_name_the_file_of_the_next_test() {
        let text = format!("% Results for a/MP.litmus %\n{OLD}");
        let log = parse_log(&text).unwrap();
        assert_eq!(test(&log, "MP").file.as_deref(), Some("a/MP.litmus"));
        assert_eq!(test(&log, "SB").file, None);
    }

    #[test]
    fn ordinals() {
        let words: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 101].map(ordinal).into();
        assert_eq!(
            words,
            ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"]
        );
    }
}
