//! The `shard` object of a shard's test report (docs/sharding.md): its place in the run,
//! and what `merge` needs that the report does not show.

use serde::{Deserialize, Serialize};

/// How a run is split between shards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ShardBy {
    /// One test: each shard runs part of its search.
    Search,
    /// Several tests: each shard runs every N-th test whole.
    Test,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShardObject {
    /// K of `--shard K/N` (from 1).
    pub index: u64,
    /// N.
    pub count: u64,
    pub by: ShardBy,
    /// The test's position among the run's tests (from 0), and their number.
    pub test: usize,
    pub tests: usize,
    /// The options that word the notes.
    pub unroll: u32,
    pub no_thin_air: bool,
    /// The notes about the program itself, which come first (`crate::program_notes`).
    pub program_notes: Vec<String>,
    /// Raw enumeration counts (`vkherd_enumerate::EnumStats`).
    pub value_mismatch: u64,
    pub thin_air_candidates: u64,
    pub thread_without_paths: Option<usize>,
    pub cut_by_state: bool,
    /// Why the shard stopped (`null`: it did not).
    pub stopped: Option<Stopped>,
    /// The digests of the run's list of files and of the test's source, 16 hex digits
    /// each (absent from versions before them: they then agree only with each other).
    pub run_digest: Option<String>,
    pub source_digest: Option<String>,
}

/// `{"reason": "timeout", "seconds": S}` or `{"reason": "max_candidates", "limit": N}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum Stopped {
    Timeout { seconds: f64 },
    MaxCandidates { limit: u64 },
}
