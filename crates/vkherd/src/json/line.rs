//! A line of a JSON log, as the readers (`merge`, `compare`) tell them apart.

use super::{ErrorLine, TestReport};
use serde::Deserialize;
use serde_json::Value;

/// Any object vkherd prints on a line of `--json` output.
#[derive(Debug, Clone, PartialEq)]
pub enum Line {
    /// The `{"summary": ...}` line of some subcommands (not read further).
    Summary,
    /// A file that failed.
    Error(ErrorLine),
    /// A test's report.
    Report(Box<TestReport>),
}

impl Line {
    /// Reads one line: an object with `summary` is a summary, one with `error` a failed
    /// file, any other a test report (whose missing fields the error names).
    pub fn parse(text: &str) -> Result<Line, serde_json::Error> {
        let v: Value = serde_json::from_str(text)?;
        Ok(if v.get("summary").is_some() {
            Line::Summary
        } else if v.get("error").is_some() {
            Line::Error(ErrorLine::deserialize(v)?)
        } else {
            Line::Report(Box::new(TestReport::deserialize(v)?))
        })
    }
}
