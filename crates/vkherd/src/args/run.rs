//! How a run searches: `--unroll`, the limits, the modes and `--liveness`, shared by the
//! commands that run tests; and the run configuration they make.

use clap::Args;
use vkherd::models::ModelChoice;
use vkherd::{Options, RunConfig};

#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    /// Bound on loops: a backward jump is taken at most N times on a path.
    #[arg(long, value_name = "N", default_value_t = 2)]
    unroll: u32,
    /// Leave out executions whose values come out of thin air.
    #[arg(long)]
    no_thin_air: bool,
    #[command(flatten)]
    limits: LimitArgs,
    /// Plain generate-and-test enumeration instead of the pruned search (for reference).
    #[arg(long)]
    naive: bool,
    /// herd7's -speedcheck: `true` keeps only the executions that matter to the condition
    /// (validate exists/~exists, refute forall); `fast` also stops once the verdict is
    /// settled and lists no states; `false` keeps all.
    #[arg(long, value_name = "MODE", default_value = "false", value_parser = speedcheck_parser())]
    speedcheck: vkherd::Speedcheck,
    /// Only the set of allowed states (with exact racy/thin-air marks): counts and the
    /// data-race flag are not reported, and known states are not enumerated again.
    #[arg(long)]
    states_only: bool,
    #[command(flatten)]
    pub liveness: LivenessArgs,
}

/// `--liveness` and `--progress` (docs/liveness.md).
#[derive(Args, Debug, Clone, Default)]
pub struct LivenessArgs {
    /// Also answer whether some invocation can loop or wait forever under the progress
    /// model (`Liveness: violation|ok|unknown` after the report; docs/liveness.md).
    #[arg(long)]
    liveness: bool,
    /// The progress model for --liveness (implies it): fair (default), hsa, obe, hsa_obe,
    /// lobe or unfair, or per level of the test's dialect: LEVEL=MODEL,...[,default=MODEL]
    /// (Vulkan's levels: qf, wg, sg, inv).
    // A short value name: a long one would switch clap's help to the two-line layout for
    // every option, changing the help of commands that have nothing to do with liveness.
    #[arg(long, value_name = "MODEL", value_parser = parse_progress)]
    progress: Option<vkherd::liveness::Progress>,
}

impl LivenessArgs {
    /// The progress model to check liveness under, if asked.
    pub fn progress(&self) -> Option<vkherd::liveness::Progress> {
        (self.progress.clone()).or(self.liveness.then(vkherd::liveness::Progress::default))
    }
}

pub(super) fn parse_progress(
    s: &str,
) -> Result<vkherd::liveness::Progress, vkherd::liveness::ProgressError> {
    vkherd::liveness::parse_progress(s)
}

/// `--speedcheck MODE`: herd7's words for the modes.
fn speedcheck_parser() -> impl clap::builder::TypedValueParser<Value = vkherd::Speedcheck> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(["false", "true", "fast"]).map(|mode| {
        match mode.as_str() {
            "true" => vkherd::Speedcheck::True,
            "fast" => vkherd::Speedcheck::Fast,
            _ => vkherd::Speedcheck::Off,
        }
    })
}

/// The default `--max-candidates` of every command that runs tests (`explain` too).
pub const DEFAULT_MAX_CANDIDATES: u64 = 1_000_000_000;
/// The default `--timeout`, in seconds, of every command that runs tests (`explain` too).
pub const DEFAULT_TIMEOUT: f64 = 3600.0;

/// Limits on one run, shared by the main form, `khronos` and `bench`.
#[derive(Args, Debug, Clone)]
pub struct LimitArgs {
    /// Stop a test after N candidates; the report is marked partial and the exit code is 3, or
    /// 4 if the states found settle the verdict (0 = no limit).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_CANDIDATES)]
    max_candidates: u64,
    /// Stop a test after SECS seconds; the report is marked partial and the exit code is 3, or
    /// 4 if the states found settle the verdict (0 = no limit).
    #[arg(long, value_name = "SECS", default_value_t = DEFAULT_TIMEOUT)]
    timeout: f64,
}

impl LimitArgs {
    /// The options of a run with these limits and the defaults otherwise (`khronos`:
    /// `.test` files have no loops and no modes).
    pub fn options(&self, model: &ModelChoice) -> Options {
        Options {
            model: model.clone(),
            run: RunConfig {
                max_candidates: self.max_candidates(),
                timeout: self.timeout(),
                ..RunConfig::default()
            },
            liveness: None,
        }
    }

    fn max_candidates(&self) -> Option<u64> {
        (self.max_candidates > 0).then_some(self.max_candidates)
    }

    fn timeout(&self) -> Option<std::time::Duration> {
        (self.timeout > 0.0 && self.timeout.is_finite())
            .then(|| std::time::Duration::from_secs_f64(self.timeout.min(1e9)))
    }
}

impl RunArgs {
    pub fn options(&self, model: &ModelChoice) -> Options {
        Options {
            model: model.clone(),
            run: RunConfig {
                unroll: self.unroll,
                no_thin_air: self.no_thin_air,
                max_candidates: self.limits.max_candidates(),
                timeout: self.limits.timeout(),
                naive: self.naive,
                speedcheck: self.speedcheck,
                states_only: self.states_only,
                // Set by the command: a progress display, a shard of the search.
                progress: None,
                shard: None,
            },
            liveness: self.liveness.progress(),
        }
    }
}

// `explain`'s run flags: the main form's that apply to it, with explain's own help
// (what a limit means for an explanation). Its options are the main form's, made by
// [`RunArgs::options`] from [`ExplainRunArgs::run_args`].
#[derive(Args, Debug, Clone)]
pub struct ExplainRunArgs {
    /// Bound on loops: a backward jump is taken at most N times on a path.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub unroll: u32,
    /// Leave out executions whose values come out of thin air.
    #[arg(long)]
    pub no_thin_air: bool,
    /// Examine at most N candidate executions (every candidate is enumerated, pruning
    /// hides the inconsistent ones); past it, no explanation and exit code 3 (0 = no
    /// limit; the main form's default).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_CANDIDATES)]
    pub max_candidates: u64,
    /// Stop after SECS seconds, with no explanation and exit code 3 (0 = no limit; the
    /// main form's default).
    #[arg(long, value_name = "SECS", default_value_t = DEFAULT_TIMEOUT)]
    pub timeout: f64,
    /// Explain the liveness verdict instead of a state: the witness, or why the
    /// progress model rules out the witnesses of weaker ones.
    #[command(flatten)]
    pub liveness: LivenessArgs,
}

impl ExplainRunArgs {
    /// The main form's flags these stand for: no mode flags, the same limits.
    pub fn run_args(&self) -> RunArgs {
        RunArgs {
            unroll: self.unroll,
            no_thin_air: self.no_thin_air,
            limits: LimitArgs {
                max_candidates: self.max_candidates,
                timeout: self.timeout,
            },
            naive: false,
            speedcheck: vkherd::Speedcheck::Off,
            states_only: false,
            liveness: self.liveness.clone(),
        }
    }
}
