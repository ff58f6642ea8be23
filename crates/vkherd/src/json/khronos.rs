//! `vkherd khronos --json`: one object per check of a `.test` file, and a summary.

use super::RunInfo;
use serde::{Deserialize, Serialize};

/// One check: what the file expects and what the model says (docs/khronos.md).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KhronosCheck {
    pub file: String,
    pub test: String,
    pub line: u32,
    pub predicate: String,
    pub nochains: bool,
    /// `SATISFIABLE` or `NOSOLUTION`.
    pub expected: String,
    /// `SATISFIABLE`, `NOSOLUTION` or `UNKNOWN` (a partial run).
    pub got: String,
    /// `PASS`, `FAIL` or `PARTIAL`.
    pub result: String,
    #[serde(flatten)]
    pub run: RunInfo,
}

/// The last line: `{"summary": {...}, run information...}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KhronosSummaryLine {
    pub summary: KhronosSummary,
    #[serde(flatten)]
    pub run: RunInfo,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KhronosSummary {
    pub files: usize,
    pub passed: u64,
    pub failed: u64,
    pub partial: u64,
    pub errors: u64,
    pub seconds: f64,
}
