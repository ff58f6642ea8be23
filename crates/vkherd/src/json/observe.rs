//! `vkherd observe --json`: one object per test run on a device (docs/observe.md).

use super::{RunInfo, Values};
use serde::{Deserialize, Serialize};

/// The model's allowed states and the device's histogram side by side. The run
/// information comes first here, unlike in the other objects.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ObservedLine {
    #[serde(flatten)]
    pub run: RunInfo,
    pub file: String,
    pub test: String,
    pub device: ObservedDevice,
    pub params: ObservedParams,
    /// The model ran without availability/visibility chains: the device lacks them.
    pub no_chains_forced: bool,
    pub states: Vec<ObservedState>,
    /// State lines (`1:r0=0; 1:r1=1;`).
    pub allowed_never_observed: Vec<String>,
    pub forbidden_states_observed: usize,
    pub forbidden_observations: u64,
    pub instances: ObservedInstances,
    /// No instance finished: some were stopped by `--max-steps` and none ended in a
    /// state (a hang on the device; exit code 5).
    pub hung: bool,
    /// The liveness check under the device's progress model (`--progress`, default
    /// obe), as `vkherd --liveness --json` writes it.
    pub liveness: Option<super::LivenessObject>,
    pub iterations: u64,
    pub seconds: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ObservedDevice {
    pub index: usize,
    pub name: String,
    pub kind: String,
    pub api_version: String,
    pub driver: String,
    pub subgroup_size: u32,
    pub vulkan_memory_model_device_scope: bool,
    pub vulkan_memory_model_availability_visibility_chains: bool,
}

/// The harness's parameters (`vkherd_observe::Params`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ObservedParams {
    pub iterations: u64,
    pub workgroup_size: u32,
    pub workgroups_per_group: u32,
    pub stress_workgroups: u32,
    pub stress_iterations: u32,
    pub stress_lines: u32,
    pub mem_stride: u32,
    pub spin_bound: u32,
    pub scatter_percent: u32,
    pub max_steps: u32,
    pub unroll: u32,
    pub seed: u64,
}

/// One final state the model allows or the device produced.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ObservedState {
    /// The state line (`1:r0=0; 1:r1=1;`).
    pub state: String,
    pub values: Values,
    pub allowed: bool,
    /// Instances within the unroll bound that ended in it.
    pub observed: u64,
    /// Instances beyond the bound that ended in it (not judged).
    pub beyond_unroll: u64,
    pub satisfies: bool,
}

/// What became of the instances run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ObservedInstances {
    pub total: u64,
    pub judged: u64,
    pub beyond_unroll: u64,
    pub unfinished: u64,
    pub misplaced: u64,
    pub cas_gave_up: u64,
    pub filtered: u64,
}

/// A test `observe` could not run: `{"file": ..., "error": {"location", "message"}}`
/// (without the run information and the `line` and `column` of [`super::ErrorLine`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ObservedError {
    pub file: String,
    pub error: ObservedErrorObject,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ObservedErrorObject {
    /// `file:line:column`, or the file alone.
    pub location: String,
    pub message: String,
}
