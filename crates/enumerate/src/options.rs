//! How to enumerate: the run's configuration ([`RunConfig`]) and the enumerator's
//! options around it ([`EnumOptions`]).

use crate::engine::hand::HandEngine;
use crate::engine::AnyEngine;
use crate::paths::PathLimits;
use crate::shard::Shard;
use std::sync::atomic::AtomicU64;

/// What the user chooses for a run, from the command line to the search: the loop bound,
/// the limits and the modes. Defined once, here, and carried whole: by the CLI's
/// `vkherd::Options` (with the model and the liveness question) and by [`EnumOptions`]
/// (with the engine and the enumerator's own bounds).
#[derive(Debug, Clone)]
pub struct RunConfig {
    /// A backward jump may be taken at most this many times on a path.
    pub unroll: u32,
    /// Stop after this many candidates (rf × asmo choices) have been examined.
    pub max_candidates: Option<u64>,
    /// Stop after this long.
    pub timeout: Option<std::time::Duration>,
    /// Leave out thin-air executions.
    pub no_thin_air: bool,
    /// Plain generate-and-test enumeration (the reference for the pruned search).
    pub naive: bool,
    /// Incremented once per candidate examined and by the size of each pruned subtree,
    /// for progress display.
    pub progress: Option<std::sync::Arc<AtomicU64>>,
    /// herd7's `-speedcheck`: keep only the executions that matter to the condition
    /// (`True`), and stop once the verdict is settled (`Fast`).
    pub speedcheck: Speedcheck,
    /// Only the set of allowed states (with exact marks) is needed, not the counts.
    pub states_only: bool,
    /// Run only this shard of the search (`--shard K/N`; `vkherd merge` puts them back).
    pub shard: Option<Shard>,
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig {
            unroll: 2,
            max_candidates: None,
            timeout: None,
            no_thin_air: false,
            naive: false,
            progress: None,
            speedcheck: Speedcheck::Off,
            states_only: false,
            shard: None,
        }
    }
}

/// How to enumerate: the run's configuration, the engine that judges, and the
/// enumerator's own bounds.
#[derive(Debug, Clone)]
pub struct EnumOptions {
    /// The engine that judges the candidates, resolved from the model by the caller
    /// (`vkherd::models::ModelSpec::engine`); the default is the hand-written Vulkan
    /// model.
    pub engine: AnyEngine,
    /// The loop bound, limits and modes the user chose.
    pub run: RunConfig,
    /// Most paths per thread, and most steps over them.
    pub path_limits: PathLimits,
    /// Most events in one path combination: events are the rows and columns of the
    /// relations, and the search keeps a few relations per level of its stack.
    pub max_events: usize,
    /// Most path combinations (product of the threads' path counts).
    pub max_path_combinations: u64,
    /// Answer the search's model checks from witnesses where they pass
    /// (`search::Search::witness`). Only the time depends on it: the tests turn it off
    /// to check that the counts do not.
    pub witnesses: bool,
    /// Skip the barrier meetings whose branch decisions no values can take
    /// (`driver::values_may_agree`), and cut the search's nodes by the screen's coherence
    /// test (search.rs, "the order lookahead"). Only the time and the effort counters (`candidates`,
    /// `pruned`, `value_mismatch`) depend on it: the tests turn it off to check that the
    /// states, their counts and the flags do not.
    pub value_screen: bool,
}

/// Most events in one path combination: the most instructions a test may have
/// (`vkherd_litmus::limits::MAX_INSTRUCTIONS`), now counted after unrolling.
pub const MAX_EVENTS: usize = vkherd_litmus::limits::MAX_INSTRUCTIONS;

impl Default for EnumOptions {
    fn default() -> Self {
        EnumOptions {
            engine: AnyEngine::Hand(HandEngine::default()),
            run: RunConfig::default(),
            path_limits: PathLimits::default(),
            max_events: MAX_EVENTS,
            max_path_combinations: 10_000_000,
            witnesses: true,
            value_screen: true,
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
