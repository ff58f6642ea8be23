//! Exhaustive enumeration of the candidate executions of a [`Program`]: bounded paths,
//! barrier meetings, rf and asmo choices and their values, handed one by one to a
//! [`Visitor`] that judges them against the model. Parallel with rayon; the result is
//! independent of the thread count because visitors merge commutatively.

pub mod candidates;
pub mod combine;
mod model;
mod naive;
pub mod outcomes;
pub mod paths;
mod search;
pub mod values;

use combine::{check_instances, layout, meetings, Meeting};
use paths::{thread_paths, Path, ThreadPaths};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;
use values::{ValueSolver, Values};
use vkherd_litmus::Span;
use vkherd_model::{EventSet, Instruction, ModelOptions, Program, Rel, Statics};

use model::ModelState;
pub use model::{bundled_model, Judgement};
pub use outcomes::{collect_outcomes, Outcomes, StateInfo};
pub use vkherd_cat::Model;

pub(crate) use model::Asmo;

/// How to enumerate.
#[derive(Debug, Clone)]
pub struct EnumOptions {
    /// The options of the bundled Vulkan model (and of the hand-written reference).
    pub model: ModelOptions,
    /// A cat model to run; `None` runs the hand-written Vulkan model for `model`.
    pub cat: Option<std::sync::Arc<Model>>,
    /// A backward jump may be taken at most this many times on a path.
    pub unroll: u32,
    /// Stop after this many candidates (rf × asmo choices) have been examined.
    pub max_candidates: Option<u64>,
    /// Most paths per thread.
    pub max_paths: usize,
    /// Leave out thin-air executions.
    pub no_thin_air: bool,
    /// Stop after this long.
    pub timeout: Option<std::time::Duration>,
    /// Most path combinations (product of the threads' path counts).
    pub max_path_combinations: u64,
    /// Plain generate-and-test enumeration (the reference for the pruned search).
    pub naive: bool,
    /// Incremented once per candidate examined, for progress display.
    pub progress: Option<std::sync::Arc<AtomicU64>>,
}

impl Default for EnumOptions {
    fn default() -> Self {
        EnumOptions {
            model: ModelOptions::default(),
            cat: None,
            unroll: 2,
            max_candidates: None,
            max_paths: 100_000,
            no_thin_air: false,
            timeout: None,
            max_path_combinations: 10_000_000,
            naive: false,
            progress: None,
        }
    }
}

/// Counts gathered while enumerating.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EnumStats {
    /// Candidates examined (rf × asmo × quorum choices, over all path combinations).
    pub candidates: u64,
    /// Candidates whose values could not be made to agree with the paths' branches.
    pub value_mismatch: u64,
    /// Value assignments that are thin air.
    pub thin_air: u64,
    /// Path combinations in which some invocation waits forever at a control barrier.
    pub deadlocked_paths: u64,
    /// Paths dropped by the unroll bound (summed over threads).
    pub dropped_paths: u64,
    /// Candidates skipped by pruning (0 for plain enumeration).
    pub pruned: u64,
    /// The run stopped early (a limit was reached): results are partial.
    pub stopped: Option<StopReason>,
}

/// One candidate execution, with its values and the model's verdict and relations.
pub struct CandidateView<'a> {
    pub statics: &'a Statics,
    pub rf: &'a Rel,
    pub rfinit: &'a EventSet,
    pub asmo: &'a Rel,
    pub values: &'a Values,
    /// The model's judgement (race flag, and the relations the visitor asked for).
    pub eval: &'a Judgement<'a>,
    /// Every non-flag check of the model holds.
    pub consistent: bool,
}

/// Judges candidates and accumulates results. `merge` must be commutative and
/// associative so that results do not depend on how rayon splits the work.
pub trait Visitor: Sync {
    type Acc: Send + Default;
    fn visit(&self, acc: &mut Self::Acc, c: &CandidateView<'_>);
    fn merge(&self, a: Self::Acc, b: Self::Acc) -> Self::Acc;
    /// True if the visitor must see inconsistent candidates too (then nothing may be
    /// pruned for inconsistency and the plain enumeration runs).
    fn needs_inconsistent(&self) -> bool {
        false
    }
    /// The model's named relations the visitor reads ([`Evaluation::rel`]).
    fn wanted(&self) -> Vec<&'static str> {
        Vec::new()
    }
}

/// Why enumeration failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnumError {
    pub span: Span,
    pub message: String,
}

/// Enumerates every candidate of `program` and folds them with `visitor`.
pub fn enumerate<V: Visitor>(
    program: &Program,
    opts: &EnumOptions,
    visitor: &V,
) -> Result<(V::Acc, EnumStats), EnumError> {
    let mut stats = EnumStats::default();
    let mut per_thread: Vec<ThreadPaths> = Vec::with_capacity(program.threads.len());
    for (t, thread) in program.threads.iter().enumerate() {
        let tp = thread_paths(thread, t, opts.unroll, opts.max_paths).map_err(|e| EnumError {
            span: Span::default(),
            message: format!(
                "thread P{} has more than {} paths at --unroll {}: lower --unroll or simplify the loops",
                e.thread, e.limit, opts.unroll
            ),
        })?;
        stats.dropped_paths += tp.dropped;
        per_thread.push(tp);
    }
    let acc = V::Acc::default();
    let budget = Budget::new(opts.max_candidates, opts.timeout);
    let combos = PathCombinations::new(&per_thread);
    if combos.total() > opts.max_path_combinations {
        return Err(EnumError {
            span: Span::default(),
            message: format!(
                "{} path combinations at --unroll {} (more than {}): lower --unroll or simplify the loops",
                combos.total(),
                opts.unroll,
                opts.max_path_combinations
            ),
        });
    }
    // Path combinations run in parallel; their results merge commutatively, and of several
    // errors the one of the first combination (in odometer order) is reported, so the
    // output does not depend on scheduling.
    let (part, part_stats, error) = combos
        .enumerate()
        .par_bridge()
        .fold(
            || {
                (
                    V::Acc::default(),
                    EnumStats::default(),
                    None::<(usize, EnumError)>,
                )
            },
            |(acc, mut st, err), (index, combo)| {
                if err.is_some() || !budget.alive() {
                    return (acc, st, err);
                }
                match combination(program, opts, visitor, &budget, &combo) {
                    Ok(Some((a, s))) => {
                        st.add(&s);
                        (visitor.merge(acc, a), st, err)
                    }
                    Ok(None) => {
                        st.deadlocked_paths += 1;
                        (acc, st, err)
                    }
                    Err(e) => (acc, st, Some((index, e))),
                }
            },
        )
        .reduce(
            || (V::Acc::default(), EnumStats::default(), None),
            |(a1, mut s1, e1), (a2, s2, e2)| {
                s1.add(&s2);
                s1.deadlocked_paths += s2.deadlocked_paths;
                let err = match (e1, e2) {
                    (Some(x), Some(y)) => Some(if x.0 <= y.0 { x } else { y }),
                    (x, y) => x.or(y),
                };
                (visitor.merge(a1, a2), s1, err)
            },
        );
    if let Some((_, e)) = error {
        return Err(e);
    }
    stats.add(&part_stats);
    stats.deadlocked_paths += part_stats.deadlocked_paths;
    stats.stopped = budget.stop_reason();
    Ok((visitor.merge(acc, part), stats))
}

/// Enumerates one path combination: `None` if it deadlocks at a barrier.
fn combination<V: Visitor>(
    program: &Program,
    opts: &EnumOptions,
    visitor: &V,
    budget: &Budget,
    combo: &[&Path],
) -> Result<Option<(V::Acc, EnumStats)>, EnumError> {
    let lay = layout(program, combo);
    let scbarinsts = match meetings(program, &lay).map_err(|e| barrier_error(program, &lay, e))? {
        Meeting::Deadlock => return Ok(None),
        Meeting::Instances(v) => v,
    };
    let solver = ValueSolver::new(program, combo.to_vec(), &lay);
    let wanted = visitor.wanted();
    let mut acc = V::Acc::default();
    let mut stats = EnumStats::default();
    for scbarinst in scbarinsts {
        let statics = Statics::new(program, lay.events.clone(), scbarinst, &opts.model);
        check_instances(&statics.scbarinst, &statics.po, &statics.events)
            .map_err(|e| barrier_error(program, &lay, e))?;
        let prepared = ModelState::new(opts.cat.as_deref(), &statics, &wanted);
        let ctx = Ctx {
            program,
            s: &statics,
            model: &prepared,
            wanted: &wanted,
            solver: &solver,
            opts,
            visitor,
            budget,
        };
        let part = if opts.naive || visitor.needs_inconsistent() {
            naive::enumerate(&ctx)?
        } else {
            search::enumerate(&ctx)?
        };
        stats.add(&part.1);
        acc = visitor.merge(acc, part.0);
        if !budget.alive() {
            break;
        }
    }
    Ok(Some((acc, stats)))
}

impl EnumStats {
    /// Adds the per-candidate counts of `o` (not the per-run ones).
    pub fn add(&mut self, o: &EnumStats) {
        self.candidates += o.candidates;
        self.value_mismatch += o.value_mismatch;
        self.thin_air += o.thin_air;
        self.pruned += o.pruned;
    }
}

/// What the rf × asmo enumeration of one path combination needs.
pub(crate) struct Ctx<'a, V> {
    pub program: &'a Program,
    pub s: &'a Statics,
    pub model: &'a ModelState<'a>,
    /// The relations the visitor reads.
    pub wanted: &'a [&'static str],
    pub solver: &'a ValueSolver<'a>,
    pub opts: &'a EnumOptions,
    pub visitor: &'a V,
    pub budget: &'a Budget,
}

impl<V: Visitor> Ctx<'_, V> {
    /// Values, then relations, then the visitor, for one complete candidate.
    pub fn visit_leaf(
        &self,
        acc: &mut V::Acc,
        st: &mut EnumStats,
        rf: &Rel,
        rfinit: &EventSet,
        asmo: &Asmo,
        solutions: &[Values],
    ) {
        st.candidates += 1;
        if let Some(p) = &self.opts.progress {
            p.fetch_add(1, Ordering::Relaxed);
        }
        if solutions.is_empty() {
            st.value_mismatch += 1;
            return;
        }
        let (eval, consistent) = self.judge(asmo, rf, rfinit, self.wanted);
        if !consistent && !self.visitor.needs_inconsistent() {
            return;
        }
        for values in solutions {
            if values.thin_air {
                st.thin_air += 1;
                if self.opts.no_thin_air {
                    continue;
                }
            }
            let view = CandidateView {
                statics: self.s,
                rf,
                rfinit,
                asmo: &asmo.0,
                values,
                eval: &eval,
                consistent,
            };
            self.visitor.visit(acc, &view);
        }
    }

    /// The error for a candidate whose thin-air values are too many to try.
    pub fn thin_air_error() -> EnumError {
        EnumError {
            span: Span::default(),
            message: format!(
                "too many thin-air value assignments to try (more than {}): the test has long cycles of values through rf",
                values::MAX_THIN_AIR_ASSIGNMENTS
            ),
        }
    }
}

/// Why a run stopped early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopReason {
    /// `max_candidates` candidates were examined.
    MaxCandidates(u64),
    /// The time limit passed.
    Timeout(std::time::Duration),
}

/// Shared limits on a run: a cap on candidates examined and a deadline.
pub(crate) struct Budget {
    limit: Option<u64>,
    deadline: Option<(Instant, std::time::Duration)>,
    used: AtomicU64,
    hit: AtomicBool,
    timed_out: AtomicBool,
}

impl Budget {
    fn new(limit: Option<u64>, timeout: Option<std::time::Duration>) -> Self {
        Budget {
            limit,
            deadline: timeout.map(|t| (Instant::now() + t, t)),
            used: AtomicU64::new(0),
            hit: AtomicBool::new(false),
            timed_out: AtomicBool::new(false),
        }
    }

    /// Takes one candidate from the budget; false once it is spent or time is up.
    pub fn take(&self) -> bool {
        if !self.alive() {
            return false;
        }
        match self.limit {
            None => true,
            Some(l) => {
                if self.used.fetch_add(1, Ordering::Relaxed) < l {
                    true
                } else {
                    self.hit.store(true, Ordering::Relaxed);
                    false
                }
            }
        }
    }

    /// False once the budget is spent or the deadline has passed (checked per search node).
    pub fn alive(&self) -> bool {
        if self.hit.load(Ordering::Relaxed) {
            return false;
        }
        if let Some((deadline, _)) = self.deadline {
            if Instant::now() >= deadline {
                self.timed_out.store(true, Ordering::Relaxed);
                self.hit.store(true, Ordering::Relaxed);
                return false;
            }
        }
        true
    }

    fn stop_reason(&self) -> Option<StopReason> {
        if !self.hit.load(Ordering::Relaxed) {
            return None;
        }
        Some(
            match (self.timed_out.load(Ordering::Relaxed), self.deadline) {
                (true, Some((_, t))) => StopReason::Timeout(t),
                _ => StopReason::MaxCandidates(self.limit.unwrap_or(0)),
            },
        )
    }
}

fn barrier_error(program: &Program, lay: &combine::Layout, e: combine::BarrierError) -> EnumError {
    let ev = &lay.events[e.event];
    let span = match &program.threads[ev.thread].code[ev.instr] {
        Instruction::Access(a) => a.span,
        _ => Span::default(),
    };
    EnumError {
        span,
        message: e.message,
    }
}

/// Every combination of one path per thread, in a fixed order (an odometer, so that the
/// combinations are not all held in memory).
struct PathCombinations<'a> {
    per_thread: &'a [ThreadPaths],
    digits: Vec<usize>,
    done: bool,
}

impl<'a> PathCombinations<'a> {
    fn new(per_thread: &'a [ThreadPaths]) -> Self {
        let done = per_thread.iter().any(|t| t.paths.is_empty());
        PathCombinations {
            per_thread,
            digits: vec![0; per_thread.len()],
            done,
        }
    }

    /// The number of combinations (saturating).
    fn total(&self) -> u64 {
        self.per_thread
            .iter()
            .fold(1u64, |acc, t| acc.saturating_mul(t.paths.len() as u64))
    }
}

impl<'a> Iterator for PathCombinations<'a> {
    type Item = Vec<&'a Path>;

    fn next(&mut self) -> Option<Vec<&'a Path>> {
        if self.done {
            return None;
        }
        let combo = self
            .per_thread
            .iter()
            .zip(&self.digits)
            .map(|(t, &d)| &t.paths[d])
            .collect();
        // Advance: the last thread varies fastest.
        self.done = true;
        for k in (0..self.digits.len()).rev() {
            self.digits[k] += 1;
            if self.digits[k] < self.per_thread[k].paths.len() {
                self.done = false;
                break;
            }
            self.digits[k] = 0;
        }
        Some(combo)
    }
}
