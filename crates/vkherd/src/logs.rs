//! Reading logs of runs back: herd-style text (vkherd's or herd7's own) and vkherd's JSON
//! lines, into one summary per test, for `vkherd compare`.

use std::collections::BTreeMap;

/// What a log says about one test.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LoggedTest {
    /// `Ok` or `No`; `error` for a file that failed (JSON logs only).
    pub verdict: String,
    /// The states, as their values only (`1:r0=0; x=1;`), without `# racy` marks.
    pub states: Vec<String>,
    /// Seconds, from a `Time` line or the JSON `stats.seconds`.
    pub seconds: Option<f64>,
    /// The run was stopped by a limit.
    pub partial: bool,
}

/// A log: tests by name.
pub type Log = BTreeMap<String, LoggedTest>;

/// Reads a log, text or JSON lines (told apart by the first non-blank character).
pub fn parse_log(text: &str) -> Result<Log, String> {
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

/// Reads herd-style reports. Lines outside a report (summaries, litmus7 chatter) are
/// skipped, as herd7's own log tools do.
pub fn parse_text_log(text: &str) -> Result<Log, String> {
    let mut log = Log::new();
    let mut lines = text.lines().enumerate().peekable();
    let mut current: Option<String> = None;
    while let Some((n, line)) = lines.next() {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("Test") => {
                let name = words
                    .next()
                    .ok_or_else(|| format!("line {}: `Test` without a name", n + 1))?;
                current = Some(name.to_string());
                log.insert(name.to_string(), LoggedTest::default());
            }
            Some("States") => {
                let name = current
                    .clone()
                    .ok_or_else(|| format!("line {}: `States` outside a test", n + 1))?;
                let count: usize = words
                    .next()
                    .and_then(|w| w.parse().ok())
                    .ok_or_else(|| format!("line {}: `States` without a count", n + 1))?;
                let mut states = Vec::with_capacity(count);
                for _ in 0..count {
                    let (_, l) = lines
                        .next()
                        .ok_or_else(|| format!("test {name}: fewer than {count} state lines"))?;
                    // litmus7 logs put a count before `:>` or `*>`.
                    let l = l.split_once('>').map_or(l, |(_, rest)| rest);
                    states.push(state_values(l));
                }
                states.sort();
                log.entry(name).or_default().states = states;
            }
            Some(v @ ("Ok" | "No")) if words.next().is_none() => {
                if let Some(t) = current.as_ref().and_then(|c| log.get_mut(c)) {
                    t.verdict = v.to_string();
                }
            }
            Some("Partial") => {
                if let Some(t) = current.as_ref().and_then(|c| log.get_mut(c)) {
                    t.partial = true;
                }
            }
            Some("Time") => {
                let name = words.next().unwrap_or("");
                let secs = words.next().and_then(|w| w.parse().ok());
                if let Some(t) = log.get_mut(name) {
                    t.seconds = secs;
                }
            }
            _ => {}
        }
    }
    Ok(log)
}

/// Reads vkherd's JSON lines (`--json`): reports, and error objects for failed files.
pub fn parse_json_log(text: &str) -> Result<Log, String> {
    let mut log = Log::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: serde_json::Value = serde_json::from_str(line)
            .map_err(|e| format!("line {}: not a JSON object: {e}", n + 1))?;
        if v.get("summary").is_some() {
            continue;
        }
        if v.get("error").is_some() {
            let file = v["file"].as_str().unwrap_or("?").to_string();
            log.insert(
                file,
                LoggedTest {
                    verdict: "error".into(),
                    ..LoggedTest::default()
                },
            );
            continue;
        }
        let name = v["name"]
            .as_str()
            .ok_or_else(|| format!("line {}: a report without `name`", n + 1))?;
        let mut states: Vec<String> = v["states"]
            .as_array()
            .map(|states| {
                states
                    .iter()
                    .map(|s| {
                        let values = s["values"].as_object().into_iter().flatten();
                        values
                            .map(|(k, v)| format!("{k}={v};"))
                            .collect::<Vec<_>>()
                            .join(" ")
                    })
                    .collect()
            })
            .unwrap_or_default();
        states.sort();
        log.insert(
            name.to_string(),
            LoggedTest {
                verdict: v["verdict"].as_str().unwrap_or("?").to_string(),
                states,
                seconds: v["stats"]["seconds"].as_f64(),
                partial: v["partial"].as_bool().unwrap_or(false),
            },
        );
    }
    Ok(log)
}

/// How one test differs between two logs.
#[derive(Debug, Clone, PartialEq)]
pub struct TestDiff {
    pub name: String,
    /// (old, new) when the verdict changed.
    pub verdict: Option<(String, String)>,
    pub gained: Vec<String>,
    pub lost: Vec<String>,
    /// new / old, when both logs have times.
    pub time_ratio: Option<f64>,
    pub seconds: (Option<f64>, Option<f64>),
    /// Either run was partial (a difference may be only the limit's doing).
    pub partial: bool,
}

impl TestDiff {
    /// Verdict or states differ.
    pub fn differs(&self) -> bool {
        self.verdict.is_some() || !self.gained.is_empty() || !self.lost.is_empty()
    }
}

/// Two logs side by side.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Comparison {
    /// Every test in both logs, by name.
    pub common: Vec<TestDiff>,
    pub only_old: Vec<String>,
    pub only_new: Vec<String>,
}

pub fn compare(old: &Log, new: &Log) -> Comparison {
    let mut c = Comparison::default();
    for (name, a) in old {
        let Some(b) = new.get(name) else {
            c.only_old.push(name.clone());
            continue;
        };
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
            name: name.clone(),
            verdict: (a.verdict != b.verdict).then(|| (a.verdict.clone(), b.verdict.clone())),
            gained,
            lost,
            time_ratio: match (a.seconds, b.seconds) {
                (Some(x), Some(y)) if x > 0.0 => Some(y / x),
                _ => None,
            },
            seconds: (a.seconds, b.seconds),
            partial: a.partial || b.partial,
        });
    }
    c.only_new = new
        .keys()
        .filter(|k| !old.contains_key(*k))
        .cloned()
        .collect();
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    const OLD: &str = "Test MP Allowed\nStates 2\n1:r0=0; # racy\n1:r0=1;\nOk\nWitnesses\nPositive: 1 Negative: 1\nCondition exists (1:r0=1)\nObservation MP Sometimes 1 1\nTime MP 0.50\n\nTest SB Allowed\nStates 1\n0:r0=0;\nNo\nWitnesses\nPositive: 0 Negative: 1\nCondition exists (0:r0=1)\nObservation SB Never 0 1\n\nSummary: 2 tests\n";

    #[test]
    fn text_logs_are_read_test_by_test() {
        let log = parse_text_log(OLD).unwrap();
        assert_eq!(log.len(), 2);
        assert_eq!(log["MP"].verdict, "Ok");
        assert_eq!(log["MP"].states, ["1:r0=0;", "1:r0=1;"]);
        assert_eq!(log["MP"].seconds, Some(0.5));
        assert_eq!(log["SB"].seconds, None);
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
        assert_eq!(mp.verdict, Some(("Ok".into(), "No".into())));
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
        assert_eq!(log["MP"], text["MP"]);
        assert_eq!(log["b.litmus"].verdict, "error");
    }
}
