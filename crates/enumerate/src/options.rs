//! How to enumerate: the run's limits and modes ([`EnumOptions`]).

use crate::engine::hand::HandEngine;
use crate::engine::AnyEngine;
use crate::paths::PathLimits;
use crate::shard::Shard;
use std::sync::atomic::AtomicU64;

/// How to enumerate.
#[derive(Debug, Clone)]
pub struct EnumOptions {
    /// The engine that judges the candidates, resolved from the model by the caller
    /// (`vkherd::models::ModelSpec::engine`); the default is the hand-written Vulkan
    /// model.
    pub engine: AnyEngine,
    /// A backward jump may be taken at most this many times on a path.
    pub unroll: u32,
    /// Stop after this many candidates (rf × asmo choices) have been examined.
    pub max_candidates: Option<u64>,
    /// Most paths per thread, and most steps over them.
    pub path_limits: PathLimits,
    /// Most events in one path combination: events are the rows and columns of the
    /// relations, and the search keeps a few relations per level of its stack.
    pub max_events: usize,
    /// Leave out thin-air executions.
    pub no_thin_air: bool,
    /// Stop after this long.
    pub timeout: Option<std::time::Duration>,
    /// Most path combinations (product of the threads' path counts).
    pub max_path_combinations: u64,
    /// Plain generate-and-test enumeration (the reference for the pruned search).
    pub naive: bool,
    /// Incremented once per candidate examined and by the size of each pruned subtree,
    /// for progress display.
    pub progress: Option<std::sync::Arc<AtomicU64>>,
    /// Keep only the executions that matter to the condition, or stop once it is settled.
    pub speedcheck: Speedcheck,
    /// Only the set of allowed states (with exact marks) is needed, not the counts.
    pub states_only: bool,
    /// Run only this shard of the search (`--shard K/N`).
    pub shard: Option<Shard>,
    /// Answer the search's model checks from witnesses where they pass
    /// (`search::Search::witness`). Only the time depends on it: the tests turn it off
    /// to check that the counts do not.
    pub witnesses: bool,
}

/// Most events in one path combination: the most instructions a test may have
/// (`vkherd_litmus::limits::MAX_INSTRUCTIONS`), now counted after unrolling.
pub const MAX_EVENTS: usize = vkherd_litmus::limits::MAX_INSTRUCTIONS;

impl Default for EnumOptions {
    fn default() -> Self {
        EnumOptions {
            engine: AnyEngine::Hand(HandEngine::default()),
            unroll: 2,
            max_candidates: None,
            path_limits: PathLimits::default(),
            max_events: MAX_EVENTS,
            no_thin_air: false,
            timeout: None,
            max_path_combinations: 10_000_000,
            naive: false,
            progress: None,
            speedcheck: Speedcheck::Off,
            states_only: false,
            shard: None,
            witnesses: true,
        }
    }
}

/// herd7's `-speedcheck`: which executions are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Speedcheck {
    /// Every execution.
    #[default]
    Off,
    /// Only the executions that matter to the condition: those that validate `exists` or
    /// `~exists` (satisfy the condition), or refute `forall` (do not satisfy it).
    True,
    /// As `True`, and the run stops at the first kept execution (the verdict is settled).
    Fast,
}
