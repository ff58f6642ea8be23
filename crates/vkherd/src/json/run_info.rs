//! What every JSON object of a run carries, so that an archived result says how it was
//! made.

use serde::{Deserialize, Serialize};

/// vkherd's version, the model, its variants, the unroll bound and the limits: the last
/// keys of every object of a run (tests, errors, `bench` and `khronos` lines).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunInfo {
    /// `0.1.0 (1a2b3c4d5e6f)`, as `--version` prints it.
    pub vkherd: String,
    /// The model that judged the test (`vulkan`, `hand:vulkan`, `opencl`, a cat model's name).
    pub model: String,
    /// The variants in force, sorted.
    pub variants: Vec<String>,
    pub unroll: u32,
    pub limits: Limits,
    pub no_thin_air: bool,
    pub naive: bool,
}

/// `--max-candidates` and `--timeout` (`null`: no limit).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Limits {
    pub max_candidates: Option<u64>,
    pub timeout_seconds: Option<f64>,
}
