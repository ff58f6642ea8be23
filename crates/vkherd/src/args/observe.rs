//! The flags of `vkherd observe` (docs/observe.md).

use super::ModelArgs;
use clap::Args;
use std::path::PathBuf;
use vkherd_observe::Params;

#[derive(Args, Debug, Clone)]
pub struct ObserveArgs {
    /// `.litmus` files, or directories (every `.litmus` below them, sorted).
    #[arg(value_name = "FILE|DIR", required_unless_present = "list_devices")]
    pub paths: Vec<PathBuf>,
    /// List the Vulkan devices (the numbers --device takes) and exit.
    #[arg(long)]
    pub list_devices: bool,
    /// The device to run on (see --list-devices).
    #[arg(long, value_name = "I", default_value_t = 0)]
    pub device: usize,
    /// Dispatches per test; each runs many instances of the test.
    #[arg(long, value_name = "N", default_value_t = Params::default().iterations)]
    pub iterations: u64,
    /// Stress workgroups per dispatch: invocations that hammer scratch memory while the
    /// test runs (0 = no stress).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub stress: u32,
    /// Read-increment-writes per stress invocation.
    #[arg(long, value_name = "N", default_value_t = Params::default().stress_iterations)]
    pub stress_iterations: u32,
    /// Invocations per device workgroup (0 = eight subgroups, within the device's limit).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub workgroup_size: u32,
    /// Device workgroups per test workgroup in a dispatch.
    #[arg(long, value_name = "N", default_value_t = Params::default().workgroups_per_group)]
    pub workgroups: u32,
    /// Words between two location slots in the test memory (spreads locations over cache
    /// lines).
    #[arg(long, value_name = "WORDS", default_value_t = Params::default().mem_stride)]
    pub mem_stride: u32,
    /// Polls of the line-up counter before a thread starts without its partners.
    #[arg(long, value_name = "N", default_value_t = Params::default().spin_bound)]
    pub spin: u32,
    /// Percent of dispatches that scatter the instances at random over the workgroups
    /// instead of aligning each instance's threads at the same places of their workgroups.
    #[arg(long, value_name = "PCT", default_value_t = Params::default().scatter_percent, value_parser = clap::value_parser!(u32).range(0..=100))]
    pub scatter: u32,
    /// Instructions a thread with jumps may execute before it is stopped (no hang).
    #[arg(long, value_name = "N", default_value_t = Params::default().max_steps)]
    pub max_steps: u32,
    /// Seed of the random placement (same seed, same placements).
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Bound on loops, for the model and for judging runs: a run that takes a backward
    /// jump more often is counted but not judged.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub unroll: u32,
    /// One JSON object per test instead of text.
    #[arg(long)]
    pub json: bool,
    /// Also write an HTML page with each test's histogram beside its allowed states.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Write each test's SPIR-V module into DIR (NAME.spv).
    #[arg(long, value_name = "DIR")]
    pub spirv: Option<PathBuf>,
    /// The device's progress model, for the liveness check run beside a test whose
    /// instances did not all finish: MODEL or LEVEL=MODEL,... as for `vkherd --progress`
    /// (docs/observe.md, "Hangs").
    #[arg(long, value_name = "MODEL", default_value = "obe", value_parser = super::run::parse_progress)]
    pub progress: vkherd::liveness::Progress,
    #[command(flatten)]
    pub model: ModelArgs,
}

impl ObserveArgs {
    pub fn params(&self) -> Params {
        Params {
            iterations: self.iterations.max(1),
            workgroup_size: self.workgroup_size,
            workgroups_per_group: self.workgroups,
            stress_workgroups: self.stress,
            stress_iterations: self.stress_iterations,
            mem_stride: self.mem_stride,
            spin_bound: self.spin,
            scatter_percent: self.scatter,
            max_steps: self.max_steps,
            unroll: self.unroll,
            seed: self.seed,
            ..Params::default()
        }
    }
}
