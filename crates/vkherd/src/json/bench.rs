//! `vkherd bench --json`: one object per test.

use super::{Pruned, RunInfo};
use serde::{Deserialize, Serialize};

/// The median time of a test over `runs` runs, and the work of the last run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BenchLine {
    pub file: String,
    pub name: String,
    pub runs: usize,
    pub median_seconds: f64,
    pub candidates: u64,
    pub pruned: Pruned,
    pub consistent: u64,
    pub candidates_per_second: f64,
    #[serde(flatten)]
    pub run: RunInfo,
}
