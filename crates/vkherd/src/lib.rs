//! vkherd: which outcomes of a Vulkan litmus test does the Vulkan memory model allow?
//!
//! The library behind the `vkherd` binary:
//!
//! ```no_run
//! let source = std::fs::read_to_string("litmus-tests/mp/MP-relacq-wg.litmus").unwrap();
//! let program = vkherd::load_litmus(&source).unwrap();
//! let report = vkherd::run(&program, &vkherd::Options::default()).unwrap();
//! print!("{}", vkherd::report::herd_text(&report));
//! ```

pub mod dot;
pub mod escape;
pub mod execution;
pub mod explain;
pub mod families;
pub mod graphs;
pub mod graphviz;
pub mod header;
pub mod html;
pub mod json;
pub mod judge;
pub mod khronos;
pub mod liveness;
pub mod locate;
pub mod logs;
pub mod matrix;
pub mod merge;
pub mod models;
pub mod observed;
pub mod report;
pub mod tally;
pub mod translated;

use std::time::Instant;

/// `0.1.0 (1a2b3c4d5e6f)`: the version and the git commit of the build (`unknown` when
/// built outside a git checkout; `, modified` when the checkout had uncommitted changes).
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (",
    env!("VKHERD_GIT_COMMIT"),
    ")"
);
pub use judge::{ModelMismatch, ResolvedModel};
use std::sync::atomic::AtomicU64;
use std::sync::Arc;
pub use vkherd_enumerate::estimate::Estimate;
use vkherd_enumerate::liveness::Strategy;
use vkherd_enumerate::{collect_outcomes_in, Budget, EnumOptions, EnumStats, Outcomes};
pub use vkherd_enumerate::{RunConfig, Shard, Speedcheck, StopReason};
pub use vkherd_litmus::Diagnostic;
use vkherd_model::{Program, Quantifier};
pub use vkherd_model::{Program as LoweredProgram, Variant};

/// Options of a run: the model, the run's configuration (the enumerator's own type,
/// carried whole) and the liveness question.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The model, as chosen once from the command line ([`models::ModelChoice`]): the
    /// one `--model` names, which judges every test and refuses those of a dialect it is
    /// not for, or else each test's dialect's model; each test resolves it for its
    /// dialect once ([`models::ModelChoice::resolve`]) and its report carries the result.
    pub model: models::ModelChoice,
    /// The loop bound, limits and modes, passed to the enumerator as they are.
    pub run: RunConfig,
    /// Also check liveness under this progress model (`--liveness`, `--progress`).
    pub liveness: Option<liveness::Progress>,
}

impl Options {
    /// These options, counting candidates on `progress` (a progress display's counter)
    /// or on none.
    pub fn with_progress(&self, progress: Option<Arc<AtomicU64>>) -> Options {
        let mut opts = self.clone();
        opts.run.progress = progress;
        opts
    }
}

/// Parses and lowers a `.litmus` source, in the dialect its header names
/// ([`vkherd_dialects::load`]).
pub fn load_litmus(source: &str) -> Result<Program, Diagnostic> {
    vkherd_dialects::load(source)
}

/// Why a run stopped early, in words (`stopped by --timeout 5 s after 123 candidates`).
pub fn stop_text(reason: StopReason, candidates: u64) -> String {
    match reason {
        StopReason::MaxCandidates(n) => {
            format!("stopped at the limit of {n} candidates (--max-candidates)")
        }
        StopReason::Timeout(t) => format!(
            "stopped by the time limit of {} s (--timeout) after {candidates} candidates",
            t.as_secs_f64()
        ),
    }
}

/// The verdict on the final condition (`Ok` or `No`, in text and JSON).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Verdict {
    Ok,
    No,
}

/// Everything a report shows about one test.
#[derive(Debug, Clone)]
pub struct Report {
    /// The test: name, description, condition, state columns.
    pub header: header::TestHeader,
    /// The model that judged the test, as resolved for its dialect; `None` for a report
    /// rebuilt from shards' JSON (`merge`), whose run information names the model.
    pub model: Option<Arc<ResolvedModel>>,
    pub outcomes: Outcomes,
    pub stats: EnumStats,
    pub verdict: Verdict,
    /// Warnings: unroll bound, thin air, deadlocks, observed locations no instruction
    /// accesses.
    pub notes: Vec<String>,
    /// No execution completes within `--unroll` ([`bounded_empty`]): `States 0` says
    /// nothing about the test, only about the bound (or a loop that cannot exit).
    pub bounded_empty: bool,
    /// The `--unroll` bound the report was made with.
    pub unroll: u32,
    pub seconds: f64,
    /// The executions kept (`--speedcheck`).
    pub speedcheck: Speedcheck,
    /// Counts and the data-race flag are not exact (`--states-only`, `--speedcheck fast`).
    pub counts_absent: bool,
    /// The states listed are not exact (`--speedcheck fast`: the run stops at a witness).
    pub states_absent: bool,
    /// The liveness check, with `--liveness` (printed after everything else).
    pub liveness: Option<LivenessPart>,
}

/// The liveness check of a report: the result and its text and JSON, rendered with the
/// source's labels and instruction texts when the run had them.
#[derive(Debug, Clone)]
pub struct LivenessPart {
    pub result: vkherd_enumerate::liveness::Liveness,
    /// `Liveness: ...` and the lines under it.
    pub text: String,
    pub json: json::LivenessObject,
}

impl Report {
    /// The verdict cannot change, however far the run would have gone: the run is
    /// complete, or the states found already settle it. Sound because a stopped run has
    /// judged each counted execution in full and the counts only grow as a run goes on: a
    /// positive witness keeps `exists` Ok and `~exists` No, a negative one keeps `forall`
    /// No.
    pub fn verdict_final(&self) -> bool {
        if self.stats.stopped.is_none() {
            return true;
        }
        match self.header.quantifier() {
            Quantifier::Exists | Quantifier::NotExists => self.outcomes.positive > 0,
            Quantifier::Forall => self.outcomes.negative > 0,
        }
    }
}

/// An upper bound on the candidates (examined or pruned) of a run, before running it
/// (the model does not change it: it counts candidates, not verdicts).
pub fn estimate(program: &Program, opts: &Options) -> Result<Estimate, Diagnostic> {
    let eo = EnumOptions {
        run: opts.run.clone(),
        ..EnumOptions::default()
    };
    vkherd_enumerate::estimate::estimate(program, &eo)
        .map_err(|e| locate::enum_diagnostic(program, e))
}

/// How much bigger than the limits an estimate must be to warn before the run: the
/// estimate ignores pruning, which often cuts all but a sliver of the search.
const FAR_PAST: f64 = 1000.0;
/// Candidates per second assumed to turn `--timeout` into a number of candidates: a
/// generous rate, so that the warning errs towards silence.
const ASSUMED_RATE: f64 = 1e6;

/// A warning, before the run, that `estimate` is far past the run's limits (`None` if it
/// is not). With `--shard` the estimate is a shard's share, a guess rather than a bound,
/// and the warning says `about` where a whole search's says `up to`.
pub fn far_past_limits(estimate: &Estimate, opts: &Options) -> Option<String> {
    let by_candidates = opts.run.max_candidates.map(|n| n as f64);
    let by_time = opts.run.timeout.map(|t| t.as_secs_f64() * ASSUMED_RATE);
    let limit = match (by_candidates, by_time) {
        (Some(a), Some(b)) => a.min(b),
        (a, b) => a.or(b)?,
    };
    let limits = [
        opts.run
            .max_candidates
            .map(|n| format!("--max-candidates {n}")),
        opts.run
            .timeout
            .map(|t| format!("--timeout {}", t.as_secs_f64())),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(", ");
    let size = if opts.run.shard.is_some() {
        "this shard's share is about"
    } else {
        "the search has up to"
    };
    estimate.exceeds(limit * FAR_PAST).then(|| {
        format!(
            "Warning: {size} {estimate} candidates, far past the limits ({limits}): the run will likely stop with a partial result; --speedcheck fast stops once the verdict is settled, or narrow the condition or lower --unroll"
        )
    })
}

/// Enumerates a lowered program and judges its condition, with the model [`judge`]
/// chooses for its dialect.
pub fn run(program: &Program, opts: &Options) -> Result<Report, Diagnostic> {
    run_with_source(program, None, opts)
}

/// [`run`], with the source text the program was loaded from (the liveness report names
/// its labels and instructions as written).
pub fn run_with_source(
    program: &Program,
    source: Option<&str>,
    opts: &Options,
) -> Result<Report, Diagnostic> {
    let model = (opts.model.resolve(program.dialect)).map_err(|e| e.diagnostic(&program.name))?;
    run_resolved(program, source, &model, &opts.run, opts.liveness.as_ref())
}

/// [`run_with_source`] with the model already resolved for the program's dialect
/// ([`models::ModelChoice::resolve`]) and the liveness question, if any.
pub fn run_resolved(
    program: &Program,
    source: Option<&str>,
    model: &Arc<ResolvedModel>,
    run: &RunConfig,
    liveness: Option<&liveness::Progress>,
) -> Result<Report, Diagnostic> {
    let start = Instant::now();
    let eo = model.enum_options(run);
    // One budget for the whole test (`--timeout`, `--max-candidates`): the liveness
    // check gets what the safety search leaves, and the deadline counts from here.
    let budget = Budget::of(run);
    let (outcomes, stats) = collect_outcomes_in(program, &eo, &budget)
        .map_err(|e| locate::enum_diagnostic(program, e))?;
    let mut report = Report::assemble(
        header::TestHeader::of(program),
        Some(model.clone()),
        (outcomes, stats),
        run,
        liveness.is_some(),
        program_notes(program, Some(model)),
        start.elapsed().as_secs_f64(),
    );
    if let Some(progress) = liveness {
        let result = vkherd_enumerate::liveness::check_in(
            program,
            &eo,
            progress,
            &budget,
            Strategy::Screened,
        )
        .map_err(|e| locate::enum_diagnostic(program, e))?;
        let names = liveness::Names::new(program, source);
        if result.verdict == vkherd_enumerate::liveness::Verdict::Unknown {
            let hint = if result.stopped.is_some() {
                "a higher --timeout or --max-candidates may settle it"
            } else {
                "a higher --unroll may settle it"
            };
            report.notes.push(format!(
                "Warning: liveness unknown: {}; {hint}",
                liveness::unknown_reason(&result, &names, run.unroll)
            ));
        }
        report.liveness = Some(LivenessPart {
            text: liveness::text(&result, program, &names, run.unroll),
            json: liveness::json(&result, program, &names, run.unroll),
            result,
        });
        report.seconds = start.elapsed().as_secs_f64();
    }
    Ok(report)
}

/// The notes a report of `program` gets before its run's: what the program does that
/// the language would reject, locations no instruction accesses, and the variants its
/// model left out ([`ResolvedModel::notes`]; none when the model is not known).
pub fn program_notes(program: &Program, model: Option<&ResolvedModel>) -> Vec<String> {
    let mut notes = program_warnings(program);
    notes.extend(model.map(|m| m.notes()).unwrap_or_default());
    notes
}

impl Report {
    /// Judges the condition on `outcomes` and writes the notes: from a run of `model`, or
    /// from the merged shards of one (`merge`, no model). Only `unroll`, `no_thin_air`,
    /// `speedcheck` and `states_only` of `run` matter; `liveness`: the run also checks
    /// liveness (the unroll warning then says what the bound bounds). `program_notes` are the warnings
    /// about the program itself ([`program_notes`]), which come first.
    pub fn assemble(
        header: header::TestHeader,
        model: Option<Arc<ResolvedModel>>,
        (outcomes, stats): (Outcomes, EnumStats),
        run: &RunConfig,
        liveness: bool,
        program_notes: Vec<String>,
        seconds: f64,
    ) -> Report {
        let ok = match header.quantifier() {
            Quantifier::Exists => outcomes.positive > 0,
            Quantifier::NotExists => outcomes.positive == 0,
            Quantifier::Forall => outcomes.negative == 0,
        };
        let mut notes = program_notes;
        let bounded_empty = bounded_empty(&outcomes, &stats, run);
        if let Some(t) = stats.thread_without_paths {
            notes.push(format!(
                "Warning: no execution completes within the unroll bound (--unroll {}): every path of thread P{t} takes a backward jump more often, so States 0 says nothing about the test; raise the bound, e.g. --unroll {} (a loop that can never exit has no execution at any bound)",
                run.unroll,
                raised_unroll(run.unroll)
            ));
        } else if bounded_empty {
            notes.push(format!(
                "Warning: no execution completes within the unroll bound (--unroll {}): {} dropped by the bound, and no path that ends within it has a consistent execution, so States 0 says nothing about the test; check that every loop can exit (a spin loop waits for a value some invocation must write: on a flag nobody sets it spins forever, at any bound), or raise the bound, e.g. --unroll {}",
                run.unroll,
                report::plural(stats.dropped_paths, "path"),
                raised_unroll(run.unroll)
            ));
        } else if stats.dropped_paths > 0 && liveness {
            // What the bound bounds is the safety part: the liveness verdict accounts for
            // the bound itself (docs/liveness.md, "What is exact, and what is bounded").
            notes.push(format!(
                "Warning: {} dropped by the unroll bound (--unroll {}): the states and counts are bounded, not complete; the liveness verdict is not (ok and violation are exact at any bound, unknown names the loop the bound cuts)",
                report::plural(stats.dropped_paths, "path"),
                run.unroll
            ));
        } else if stats.dropped_paths > 0 {
            notes.push(format!(
                "Warning: {} dropped by the unroll bound (--unroll {}): the result is bounded, not complete",
                report::plural(stats.dropped_paths, "path"),
                run.unroll
            ));
        }
        let counts_absent = run.states_only || run.speedcheck == Speedcheck::Fast;
        let states_absent = run.speedcheck == Speedcheck::Fast;
        if states_absent {
            // Which witness is found first depends on scheduling: say nothing about thin air.
        } else if counts_absent {
            // Counts are not exact; the states' marks are.
            if outcomes.states.values().any(|i| !i.not_thin_air) {
                notes.push(
                    "Warning: some state is reached only by thin-air executions (values that depend on themselves through rf); --no-thin-air leaves them out".to_string(),
                );
            }
        } else if run.no_thin_air && stats.thin_air > 0 {
            notes.push(format!(
                "Warning: {} left out (--no-thin-air)",
                report::plural(stats.thin_air, "thin-air execution")
            ));
        } else if outcomes.thin_air > 0 {
            notes.push(format!(
                "Warning: {} counted (values that depend on themselves through rf); --no-thin-air leaves them out",
                report::plural(outcomes.thin_air, "thin-air execution")
            ));
        }
        if stats.deadlocked_paths > 0 && !states_absent {
            notes.push(format!(
                "Warning: {} at a control barrier, not counted",
                deadlock_text(stats.deadlocked_paths)
            ));
        }
        let mut report = Report {
            header,
            model,
            outcomes,
            stats,
            verdict: if ok { Verdict::Ok } else { Verdict::No },
            notes,
            bounded_empty,
            unroll: run.unroll,
            seconds,
            speedcheck: run.speedcheck,
            counts_absent,
            states_absent,
            liveness: None,
        };
        if let Some(reason) = report.stats.stopped {
            let what = if report.verdict_final() {
                "the verdict is final, the list of states is partial"
            } else {
                "the result is partial"
            };
            let note = format!(
                "Warning: {}: {what}",
                stop_text(reason, report.stats.candidates)
            );
            report.notes.push(note);
        }
        report
    }
}

/// Is the result bounded-empty: does no execution complete within the unroll bound?
///
/// Exactly when the run is complete, the bound dropped some path, and no path that ends
/// within the bound has a consistent execution, counting those `--no-thin-air` leaves out
/// (they complete; the option hides them). A thread all of whose paths were dropped is
/// the plain case (no path combination at all); a spin loop on a flag nobody sets is the
/// other: its paths that end within the bound need a value no write gives. Not
/// bounded-empty:
/// - a result without dropped paths: its `States 0` (every path deadlocks, say) is the
///   test's own, at any bound;
/// - consistent executions that the filter or the condition leave out of the states:
///   executions complete, the test just does not show them;
/// - a partial run, or one whose search skipped subtrees for their final state
///   (`--speedcheck`, `--states-only`: `EnumStats::cut_by_state`): the executions it
///   did not see may complete, so it cannot tell.
pub fn bounded_empty(outcomes: &Outcomes, stats: &EnumStats, run: &RunConfig) -> bool {
    if stats.thread_without_paths.is_some() {
        return true;
    }
    let hidden_thin_air = if run.no_thin_air { stats.thin_air } else { 0 };
    let completed = outcomes.consistent + hidden_thin_air;
    stats.stopped.is_none() && stats.dropped_paths > 0 && !stats.cut_by_state && completed == 0
}

/// `1 path combination deadlocks`, `2 path combinations deadlock`.
fn deadlock_text(n: u64) -> String {
    if n == 1 {
        "1 path combination deadlocks".into()
    } else {
        format!("{n} path combinations deadlock")
    }
}

/// The `--unroll` to suggest when `unroll` was too low.
pub fn raised_unroll(unroll: u32) -> u32 {
    unroll.saturating_mul(2).max(unroll.saturating_add(1))
}

/// The warnings about the program itself: what its source does that the language would
/// reject (read anyway, docs/opencl.md), then [`unaccessed_locations`].
fn program_warnings(program: &Program) -> Vec<String> {
    let mut notes: Vec<String> = program.warnings.iter().map(|w| w.note()).collect();
    notes.extend(unaccessed_locations(program));
    notes
}

/// A warning for each location the final state shows (condition, filter or `locations`)
/// that no instruction accesses: it can only hold its initial value, which is most often a
/// typo (`xx == 1` for `x == 1`).
pub fn unaccessed_locations(program: &Program) -> Vec<String> {
    use vkherd_model::{Instruction, Observable};
    let accessed = |loc: usize| {
        program.threads.iter().any(|t| {
            t.code.iter().any(|i| {
                matches!(i, Instruction::Access(a)
                    if a.reference.is_some_and(|r| program.references[r].location == loc))
            })
        })
    };
    program
        .observed
        .iter()
        .filter_map(|o| match *o {
            Observable::Loc(l) if !accessed(l) => Some(format!(
                "Warning: location `{}` is in the final state (condition, filter or locations) but no instruction accesses it: it always holds its initial value {} (a typo?)",
                program.locations[l].name, program.locations[l].init
            )),
            _ => None,
        })
        .collect()
}
