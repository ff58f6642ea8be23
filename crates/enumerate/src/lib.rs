//! Exhaustive enumeration of the candidate executions of a [`Program`]: bounded paths,
//! barrier meetings, rf and asmo choices and their values, handed one by one to a
//! [`Visitor`] that judges them against the model. Parallel with rayon; the result is
//! independent of the thread count because visitors merge commutatively.

pub mod candidates;
pub mod capture;
mod coherence;
mod columns;
pub mod combine;
pub mod estimate;
pub mod liveness;
mod model;
mod naive;
pub mod outcomes;
pub mod paths;
mod search;
pub mod values;

use combine::{check_instances, layout, meetings, Meeting};
use paths::{thread_paths, Path, PathLimitError, PathLimits, ThreadPaths};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;
use values::{ValueSolver, Values};
use vkherd_litmus::Span;
use vkherd_model::{EventSet, Instruction, ModelOptions, Program, Rel, Statics};

use model::ModelState;
pub use model::{bundled_model, Judgement};
pub use outcomes::{collect_outcomes, Outcomes, Speedcheck, StateInfo};
pub use vkherd_cat::Model;

pub(crate) use model::{Asmo, NodeEval};

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

/// One of `count` deterministic parts of a search (`index` counts from 0). The parts
/// partition the search's work units, so that the shards' results merge into the whole
/// run's (their counts add up, their states unite).
///
/// A work unit is a subtree of the search: the path of choices that leads to it (path
/// combination, barrier meeting, then the search's own choices in their fixed order) is
/// hashed, and the unit belongs to the shard `hash % count`. A search descends undecided
/// until the choices made so far span at least [`SPLIT_UNITS`] branches; from there on
/// the subtree is one unit, explored whole by its owner or skipped. A subtree pruned or a
/// leaf reached while still undecided is counted by the shard that owns its own hash, so
/// every candidate and every pruned subtree is counted by exactly one shard whatever the
/// scheduling.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// Does this shard own the unit with this hash?
    pub fn owns(&self, hash: u64) -> bool {
        hash % self.count == self.index
    }
}

/// Most events in one path combination: the most instructions a test may have
/// (`vkherd_litmus::limits::MAX_INSTRUCTIONS`), now counted after unrolling.
pub const MAX_EVENTS: usize = vkherd_litmus::limits::MAX_INSTRUCTIONS;

/// Branches a sharded search spans before its subtrees become work units: enough for
/// shards to balance.
pub(crate) const SPLIT_UNITS: u128 = 256;

/// With at least this many path combinations per shard, shards take whole combinations
/// (dealt by the hash of their number) and skip the others before laying them out, so
/// that N shards together cost about one run; below it, every shard splits each search.
pub(crate) const WHOLE_COMBINATIONS_PER_SHARD: u64 = 8;

/// Where a search node stands for sharding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unit {
    /// Inside a work unit this run owns (always, without sharding).
    Owned,
    /// Above the work units: the hash of the choices so far and how many branches they span.
    Open { hash: u64, width: u128 },
}

impl Unit {
    /// Branch `digit` of `width` below this node; `None` if it is another shard's unit.
    pub(crate) fn child(self, shard: Option<Shard>, digit: u64, width: u64) -> Option<Unit> {
        match (self, shard) {
            (Unit::Open { hash, width: w }, Some(sh)) => {
                let hash = mix(hash, digit);
                let width = w.saturating_mul(width as u128);
                if width < SPLIT_UNITS {
                    Some(Unit::Open { hash, width })
                } else {
                    sh.owns(hash).then_some(Unit::Owned)
                }
            }
            _ => Some(Unit::Owned),
        }
    }

    /// Does the shard count what happens at this node (a leaf, a pruned subtree)?
    pub(crate) fn counts(self, shard: Option<Shard>) -> bool {
        match (self, shard) {
            (Unit::Open { hash, .. }, Some(sh)) => sh.owns(hash),
            _ => true,
        }
    }
}

/// Mixes one choice into a unit hash (SplitMix64's finaliser: deterministic everywhere).
pub(crate) fn mix(hash: u64, digit: u64) -> u64 {
    let mut z = hash
        ^ digit
            .wrapping_add(0x9e37_79b9_7f4a_7c15)
            .wrapping_add(hash << 6);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Default for EnumOptions {
    fn default() -> Self {
        EnumOptions {
            model: ModelOptions::default(),
            cat: None,
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
    /// Candidates skipped by pruning (0 for plain enumeration): the rf completions below
    /// each cut, an estimate that can pass 2^64 (saturates at 2^128 - 1).
    pub pruned: u128,
    /// The run stopped early (a limit was reached): results are partial.
    pub stopped: Option<StopReason>,
    /// The first thread all of whose paths were dropped by the unroll bound: no execution
    /// completes within the bound.
    pub thread_without_paths: Option<usize>,
    /// Some subtree was skipped by the visitor for its final-state columns
    /// ([`Visitor::skip`]: `--speedcheck`, `--states-only`), so the consistent executions
    /// the visitor saw need not be all there are.
    pub cut_by_state: bool,
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
    /// True if the visitor may cut subtrees by the final-state columns they determine
    /// ([`Visitor::skip`]).
    fn cuts_by_state(&self) -> bool {
        false
    }
    /// May every candidate below a partial execution whose observed columns are `known`
    /// (`None` = not yet determined; see `columns::known_columns`) be skipped without
    /// changing the visitor's result? Must be sound for every completion.
    fn skip(&self, _known: &[Option<i64>]) -> bool {
        false
    }
    /// True once the visitor needs no more candidates (the run stops, not partial).
    fn done(&self) -> bool {
        false
    }
    /// The model's named relations the visitor reads ([`Evaluation::rel`]).
    fn wanted(&self) -> Vec<&'static str> {
        Vec::new()
    }
    /// May read event `read` take its value from `source`? A visitor may say no only
    /// where its `visit` rejects every candidate with that rf pair (it checks again), so
    /// that the pruned search, which then never offers the pair, finds what the plain
    /// enumeration finds (liveness: the lap rule's rf conditions).
    fn rf_allowed(&self, _read: usize, _source: values::Source) -> bool {
        true
    }
}

/// Why enumeration failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnumError {
    pub span: Span,
    pub message: String,
    /// What the error is about, for the errors that have a kind of their own.
    pub kind: EnumErrorKind,
}

/// The kinds of enumeration errors (the limits of docs/errors.md "On the enumeration").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EnumErrorKind {
    /// Not given a kind of its own yet: the message says it all.
    Other,
    /// A limit on one thread's paths at the unroll bound.
    Paths(paths::PathLimitError),
    /// More than `limit` path combinations (the product of the threads' paths).
    TooManyPathCombinations { combinations: u64, limit: u64 },
    /// Some path combination has `events` events, more than `limit`.
    TooManyEvents { events: usize, limit: usize },
}

impl EnumErrorKind {
    /// The thread the error concerns, if it concerns one thread.
    pub fn thread(&self) -> Option<usize> {
        match *self {
            EnumErrorKind::Paths(
                PathLimitError::TooMany { thread, .. } | PathLimitError::TooLong { thread, .. },
            ) => Some(thread),
            EnumErrorKind::Other
            | EnumErrorKind::TooManyPathCombinations { .. }
            | EnumErrorKind::TooManyEvents { .. } => None,
        }
    }
}

impl EnumError {
    /// An error of no particular kind.
    pub(crate) fn other(span: Span, message: String) -> EnumError {
        EnumError {
            span,
            message,
            kind: EnumErrorKind::Other,
        }
    }

    /// An error of the test as a whole, of `kind`, worded for a run at `unroll`.
    pub(crate) fn of_kind(kind: EnumErrorKind, unroll: u32) -> EnumError {
        let message = match kind {
            EnumErrorKind::Paths(PathLimitError::TooMany { thread, limit }) => format!(
                "thread P{thread} has more than {limit} paths at --unroll {unroll}: lower --unroll or simplify the loops"
            ),
            EnumErrorKind::Paths(PathLimitError::TooLong { thread, limit }) => format!(
                "the paths of thread P{thread} execute more than {limit} instructions in all at --unroll {unroll}: lower --unroll or simplify the loops"
            ),
            EnumErrorKind::TooManyPathCombinations { combinations, limit } => format!(
                "{combinations} path combinations at --unroll {unroll} (more than {limit}): lower --unroll or simplify the loops"
            ),
            EnumErrorKind::TooManyEvents { events, limit } => format!(
                "a path combination has {events} events at --unroll {unroll} (more than {limit}): lower --unroll or simplify the loops"
            ),
            EnumErrorKind::Other => String::new(),
        };
        EnumError {
            span: Span::default(),
            message,
            kind,
        }
    }
}

/// Enumerates every candidate of `program` and folds them with `visitor`.
pub fn enumerate<V: Visitor>(
    program: &Program,
    opts: &EnumOptions,
    visitor: &V,
) -> Result<(V::Acc, EnumStats), EnumError> {
    let mut stats = EnumStats::default();
    // The deadline counts from here, so that path enumeration is inside the time limit.
    let budget = Budget::new(opts.max_candidates, opts.timeout);
    let witnesses = search::WitnessTally::default();
    let per_thread = all_thread_paths(program, opts)?;
    let panic_on_purpose = test_panic_requested(program);
    stats.dropped_paths = per_thread.iter().map(|tp| tp.dropped).sum();
    stats.thread_without_paths = per_thread.iter().position(|tp| tp.paths.is_empty());
    let acc = V::Acc::default();
    let combos = PathCombinations::new(&per_thread);
    if combos.total() > opts.max_path_combinations {
        let kind = EnumErrorKind::TooManyPathCombinations {
            combinations: combos.total(),
            limit: opts.max_path_combinations,
        };
        return Err(EnumError::of_kind(kind, opts.unroll));
    }
    // Sharding by whole path combinations when there are enough of them.
    let whole = opts
        .shard
        .filter(|sh| combos.total() >= WHOLE_COMBINATIONS_PER_SHARD.saturating_mul(sh.count));
    // Path combinations run in parallel; their results merge commutatively, and of several
    // errors the one of the first combination (in odometer order) is reported, so the
    // output does not depend on scheduling.
    // Once the budget is spent the remaining combinations (up to millions) are not even
    // generated: stopping promptly is part of honouring --timeout.
    let (part, part_stats, error) = combos
        .enumerate()
        .take_while(|_| budget.alive())
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
                if err.is_some() || !budget.alive() || visitor.done() {
                    return (acc, st, err);
                }
                if panic_on_purpose {
                    panic!(
                        "VKHERD_TEST_PANIC: a panic on purpose in `{}`",
                        program.name
                    );
                }
                if whole.is_some_and(|sh| !sh.owns(mix(0, index as u64))) {
                    return (acc, st, err);
                }
                let split = opts.shard.is_some() && whole.is_none();
                match combination(
                    program,
                    opts,
                    visitor,
                    (&budget, &witnesses),
                    (index as u64, split),
                    &combo,
                ) {
                    Ok(Some((a, s))) => {
                        st.add(&s);
                        (visitor.merge(acc, a), st, err)
                    }
                    Ok(None) => {
                        // A deadlocked combination has no work units: one shard counts it.
                        if !split || opts.shard.is_some_and(|sh| sh.owns(mix(0, index as u64))) {
                            st.deadlocked_paths += 1;
                        }
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

/// Debug builds only: is a panic asked for in this test's enumeration (its name is the
/// value of `VKHERD_TEST_PANIC`)? It is raised in a worker thread, as a bug would be, so
/// that the tests can check that a panic loses no other test's report
/// (crates/vkherd/tests/failing_tests.rs).
fn test_panic_requested(program: &Program) -> bool {
    cfg!(debug_assertions)
        && std::env::var_os("VKHERD_TEST_PANIC").is_some_and(|n| n == program.name.as_str())
}

/// The number of candidates plain enumeration (`naive`) would examine, or `None` if it
/// exceeds `cap` (or the paths exceed the limits). For tests that compare against it.
pub fn naive_size(program: &Program, opts: &EnumOptions, cap: u64) -> Option<u64> {
    let per_thread = program
        .threads
        .iter()
        .enumerate()
        .map(|(t, thread)| thread_paths(thread, t, opts.unroll, opts.path_limits).ok())
        .collect::<Option<Vec<ThreadPaths>>>()?;
    let mut total = 0u64;
    for combo in PathCombinations::new(&per_thread) {
        let lay = layout(program, &combo);
        let Ok(Meeting::Instances(scbarinsts)) = meetings(program, &lay) else {
            continue;
        };
        for scbarinst in scbarinsts {
            let s = Statics::new(program, lay.events.clone(), scbarinst, &opts.model);
            let rf: u64 = candidates::rf_options(program, &s)
                .iter()
                .flatten()
                .try_fold(1u64, |acc, o| acc.checked_mul(o.len() as u64))?;
            if rf == 0 {
                continue;
            }
            let asmo_cap = (cap / rf).saturating_add(1) as usize;
            let asmo = candidates::AsmoOrders::new(program, &s)
                .take(asmo_cap)
                .count() as u64;
            total = total.checked_add(rf.checked_mul(asmo)?)?;
            if total > cap {
                return None;
            }
        }
    }
    Some(total)
}

/// The paths of every thread, within the limits: those of [`PathLimits`] per thread, and
/// `max_events` in the largest path combination (the longest path of every thread).
pub(crate) fn all_thread_paths(
    program: &Program,
    opts: &EnumOptions,
) -> Result<Vec<ThreadPaths>, EnumError> {
    let per_thread = (program.threads.iter().enumerate())
        .map(|(t, thread)| {
            thread_paths(thread, t, opts.unroll, opts.path_limits)
                .map_err(|e| EnumError::of_kind(EnumErrorKind::Paths(e), opts.unroll))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let events: usize = (program.threads.iter().zip(&per_thread))
        .map(|(thread, tp)| tp.paths.iter().map(|p| p.events(thread)).max().unwrap_or(0))
        .sum();
    if events > opts.max_events {
        let kind = EnumErrorKind::TooManyEvents {
            events,
            limit: opts.max_events,
        };
        return Err(EnumError::of_kind(kind, opts.unroll));
    }
    Ok(per_thread)
}

/// Enumerates one path combination: `None` if it deadlocks at a barrier.
fn combination<V: Visitor>(
    program: &Program,
    opts: &EnumOptions,
    visitor: &V,
    (budget, witnesses): (&Budget, &search::WitnessTally),
    (combination, split): (u64, bool),
    combo: &[&Path],
) -> Result<Option<(V::Acc, EnumStats)>, EnumError> {
    let lay = layout(program, combo);
    let scbarinsts = match meetings(program, &lay).map_err(|e| barrier_error(program, &lay, e))? {
        Meeting::Deadlock => return Ok(None),
        Meeting::Instances(v) => v,
    };
    search_layout(
        program,
        opts,
        visitor,
        (budget, witnesses),
        (combination, split),
        combo,
        (&lay, scbarinsts),
    )
    .map(Some)
}

/// Enumerates the rf × asmo candidates of one laid-out path combination, for each of its
/// barrier meetings (`scbarinst` choices).
pub(crate) fn search_layout<V: Visitor>(
    program: &Program,
    opts: &EnumOptions,
    visitor: &V,
    (budget, witnesses): (&Budget, &search::WitnessTally),
    (combination, split): (u64, bool),
    combo: &[&Path],
    (lay, scbarinsts): (&combine::Layout, Vec<Rel>),
) -> Result<(V::Acc, EnumStats), EnumError> {
    let solver = ValueSolver::new(program, combo.to_vec(), lay).with_deadline(budget);
    let wanted = visitor.wanted();
    let mut acc = V::Acc::default();
    let mut stats = EnumStats::default();
    for (meeting, scbarinst) in scbarinsts.into_iter().enumerate() {
        let statics = Statics::new(program, lay.events.clone(), scbarinst, &opts.model);
        check_instances(&statics.scbarinst, &statics.po, &statics.events)
            .map_err(|e| barrier_error(program, lay, e))?;
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
            witnesses,
            unit: (combination, meeting as u64),
            split,
        };
        let part = if opts.naive || visitor.needs_inconsistent() {
            naive::enumerate(&ctx)?
        } else {
            search::enumerate(&ctx)?
        };
        stats.add(&part.1);
        acc = visitor.merge(acc, part.0);
        if !budget.alive() || visitor.done() {
            break;
        }
    }
    Ok((acc, stats))
}

impl EnumStats {
    /// Adds the per-candidate counts of `o` (not the per-run ones).
    pub fn add(&mut self, o: &EnumStats) {
        self.candidates += o.candidates;
        self.value_mismatch += o.value_mismatch;
        self.thin_air += o.thin_air;
        self.pruned = self.pruned.saturating_add(o.pruned);
        self.cut_by_state |= o.cut_by_state;
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
    /// How the searches' witnesses fared so far (`Search::witness`).
    pub witnesses: &'a search::WitnessTally,
    /// This search's path combination and barrier-meeting choice numbers (for sharding).
    pub unit: (u64, u64),
    /// This search is split among the shards (else it is run whole, or not at all).
    pub split: bool,
}

// The search's view of a run besides the model (whose calls are in model.rs): liveness,
// cuts by state, sharding and pruned counts.
impl<V: Visitor> Ctx<'_, V> {
    /// False once the budget is spent, the time is up or the visitor is done.
    pub fn alive(&self) -> bool {
        self.budget.alive() && !self.visitor.done()
    }

    /// May the subtree below this partial execution (`asmo` transitively closed) be skipped
    /// for what it can still add to the visitor's result? Only visitors that cut by state
    /// ever say yes.
    pub fn skip_by_state(&self, rf: &[Option<values::Source>], asmo: &Rel) -> bool {
        if !self.visitor.cuts_by_state() {
            return false;
        }
        let known = columns::known_columns(
            self.program,
            self.s,
            self.solver,
            rf,
            asmo,
            self.vulkan_core(),
        );
        self.visitor.skip(&known)
    }

    /// The sharding position of this search's root: owned without sharding, else undecided
    /// with the hash of its path combination and barrier meeting.
    pub(crate) fn unit_root(&self) -> Unit {
        match self.opts.shard {
            Some(_) if self.split => Unit::Open {
                hash: mix(mix(0, self.unit.0), self.unit.1),
                width: 1,
            },
            _ => Unit::Owned,
        }
    }

    /// The sharding position of branch `digit` of `width` below `unit`; `None` if that
    /// branch is a work unit of another shard.
    pub(crate) fn unit_child(&self, unit: Unit, digit: u64, width: u64) -> Option<Unit> {
        unit.child(self.opts.shard.filter(|_| self.split), digit, width)
    }

    /// Does this run count what happens at a node (a leaf examined, a subtree pruned)?
    /// Inside an owned unit yes; above the units, only the shard owning the node's hash.
    pub(crate) fn unit_counts(&self, unit: Unit) -> bool {
        unit.counts(self.opts.shard.filter(|_| self.split))
    }

    /// Plain enumeration's sharding: every candidate (rf number, asmo number) is a unit.
    pub(crate) fn owns_candidate(&self, rf: u64, asmo: u64) -> bool {
        match self.unit_root() {
            Unit::Open { hash, .. } => self.unit_counts(Unit::Open {
                hash: mix(mix(hash, rf), asmo),
                width: 1,
            }),
            Unit::Owned => true,
        }
    }

    /// Counts `n` candidates cut away without being examined at a node in `unit`.
    pub(crate) fn prune(&self, st: &mut EnumStats, unit: Unit, n: u128) {
        if !self.unit_counts(unit) {
            return;
        }
        st.pruned = st.pruned.saturating_add(n);
        if let Some(p) = &self.opts.progress {
            let n = u64::try_from(n).unwrap_or(u64::MAX);
            let _ = p.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |v| {
                Some(v.saturating_add(n))
            });
        }
    }

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
        self.visit_leaf_filtered(acc, st, (rf, rfinit, asmo), solutions, None, || true);
    }

    /// [`Self::visit_leaf`] with a cheap necessary condition for consistency, tried after
    /// the values and before the model: when `may_be_consistent` says no, the candidate
    /// is counted as examined and inconsistent without evaluating the model. Only for
    /// visitors that never see inconsistent candidates (the pruned search's). `parent`:
    /// what the model check of the leaf's parent node gave (`Ctx::check_node`).
    pub(crate) fn visit_leaf_filtered(
        &self,
        acc: &mut V::Acc,
        st: &mut EnumStats,
        (rf, rfinit, asmo): (&Rel, &EventSet, &Asmo),
        solutions: &[Values],
        parent: Option<&NodeEval>,
        may_be_consistent: impl FnOnce() -> bool,
    ) {
        st.candidates += 1;
        if let Some(p) = &self.opts.progress {
            p.fetch_add(1, Ordering::Relaxed);
        }
        if solutions.is_empty() {
            st.value_mismatch += 1;
            return;
        }
        if !self.visitor.needs_inconsistent() && !may_be_consistent() {
            return;
        }
        let (eval, consistent) = self.judge(asmo, rf, rfinit, self.wanted, parent);
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
        EnumError::other(
            Span::default(),
            format!(
                "too many thin-air value assignments to try (more than {}): the test has long cycles of values through rf",
                values::MAX_THIN_AIR_ASSIGNMENTS
            ),
        )
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
    pub(crate) fn new(limit: Option<u64>, timeout: Option<std::time::Duration>) -> Self {
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

    /// False once the budget is spent or the deadline has passed. Checked per search node,
    /// per path combination and asmo order, and every few hundred thin-air value guesses,
    /// so that no stretch of work between two checks is long (`--timeout` is kept to a few
    /// per cent).
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

pub(crate) fn barrier_error(
    program: &Program,
    lay: &combine::Layout,
    e: combine::BarrierError,
) -> EnumError {
    let ev = &lay.events[e.event];
    let span = match &program.threads[ev.thread].code[ev.instr] {
        Instruction::Access(a) => a.span,
        _ => Span::default(),
    };
    EnumError::other(span, e.message)
}

/// Every combination of one path per thread, in a fixed order (an odometer, so that the
/// combinations are not all held in memory).
pub(crate) struct PathCombinations<'a> {
    per_thread: &'a [ThreadPaths],
    digits: Vec<usize>,
    done: bool,
}

impl<'a> PathCombinations<'a> {
    pub(crate) fn new(per_thread: &'a [ThreadPaths]) -> Self {
        let done = per_thread.iter().any(|t| t.paths.is_empty());
        PathCombinations {
            per_thread,
            digits: vec![0; per_thread.len()],
            done,
        }
    }

    /// The number of combinations (saturating).
    pub(crate) fn total(&self) -> u64 {
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

#[cfg(test)]
mod shard_tests {
    use super::*;

    /// Walks a tree of the given branch widths as a sharded search does and returns, per
    /// shard, the leaves it counts.
    fn leaves(shard: Option<Shard>, widths: &[u64]) -> Vec<Vec<u64>> {
        fn walk(shard: Option<Shard>, unit: Unit, widths: &[u64], path: u64, out: &mut Vec<u64>) {
            let counts = unit.counts(shard);
            let Some((&w, rest)) = widths.split_first() else {
                if counts {
                    out.push(path);
                }
                return;
            };
            for d in 0..w {
                let child = unit.child(shard, d, w);
                if let Some(u) = child {
                    walk(shard, u, rest, path * w + d, out);
                }
            }
        }
        let count = shard.map_or(1, |s| s.count);
        (0..count)
            .map(|index| {
                let sh = shard.map(|_| Shard { index, count });
                let root = match sh {
                    None => Unit::Owned,
                    Some(_) => Unit::Open { hash: 7, width: 1 },
                };
                let mut out = Vec::new();
                walk(sh, root, widths, 0, &mut out);
                out
            })
            .collect()
    }

    #[test]
    fn shards_partition_the_leaves() {
        for widths in [
            vec![],
            vec![3],
            vec![2; 10],
            vec![300, 2],
            vec![5, 1, 7, 3, 2],
        ] {
            let whole: Vec<u64> = leaves(None, &widths).concat();
            for count in 1..6u64 {
                let parts = leaves(Some(Shard { index: 0, count }), &widths);
                let mut all: Vec<u64> = parts.concat();
                all.sort_unstable();
                // Every leaf in exactly one shard.
                assert_eq!(all, whole, "{widths:?} in {count} shards");
            }
        }
    }

    #[test]
    fn big_trees_spread_over_every_shard() {
        let parts = leaves(Some(Shard { index: 0, count: 4 }), &[2; 12]);
        for p in &parts {
            assert!(p.len() > 512, "{}", p.len());
        }
    }
}
