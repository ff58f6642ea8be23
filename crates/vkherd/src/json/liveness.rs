//! The `"liveness"` object of a test's JSON (`--liveness`; docs/liveness.md).

use serde::{Deserialize, Serialize};

/// The liveness answer under one progress model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LivenessObject {
    /// `violation`, `ok` or `unknown`.
    pub verdict: String,
    /// Each level's progress model (`fair`, `lobe`, `hsa_obe`, `hsa`, `obe`, `unfair`),
    /// by the level's key, outermost first (Vulkan: `qf`, `wg`, `sg`, `inv`).
    pub progress: ProgressLevels,
    /// The progress model as `--progress` would take it (`fair`, `wg=obe,default=fair`).
    pub progress_text: String,
    /// With a violation: each invocation of the witness that does not terminate.
    pub threads: Vec<StuckThread>,
    /// With `unknown`: why the answer is not settled (`null` otherwise).
    pub reason: Option<String>,
    /// Path combinations searched.
    pub combinations: u64,
}

/// The progress model of each level of the invocation tree by its key, outermost first.
pub type ProgressLevels = serde_json::Map<String, serde_json::Value>;

/// An invocation of a violation's witness that does not terminate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StuckThread {
    /// `P1`.
    pub thread: String,
    /// `spinning`, `repeating`, `blocked` or `paused`.
    pub ending: String,
    /// It executed at least one instruction (or arrived at a barrier).
    pub started: bool,
    /// The line the text report prints for it.
    pub text: Option<String>,
}
