//! Exhaustive enumeration of the candidate executions of a [`Program`]: bounded paths,
//! barrier meetings, rf and asmo choices and their values, handed one by one to a
//! [`Visitor`] that judges them against the model. Parallel with rayon; the result is
//! independent of the thread count because visitors merge commutatively.

pub mod candidates;
pub mod combine;
pub mod estimate;
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
use vkherd_model::axioms::{AsmoTerms, Candidate, StaticTerms};
use vkherd_model::{Derived, EventSet, Instruction, ModelOptions, Program, Rel, Statics};

pub use outcomes::{collect_outcomes, Outcomes, StateInfo};

/// How to enumerate.
#[derive(Debug, Clone)]
pub struct EnumOptions {
    pub model: ModelOptions,
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
    /// Incremented once per candidate examined and by the size of each pruned subtree,
    /// for progress display.
    pub progress: Option<std::sync::Arc<AtomicU64>>,
    /// Run only this shard of the search (`--shard K/N`).
    pub shard: Option<Shard>,
}

/// One of `count` deterministic parts of a search (`index` counts from 0). The parts
/// partition the search's top-level work units, so that the shards' results merge into
/// the whole run's (their counts add up, their states unite).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// Does this shard own the work unit `(combination, meeting, choice)`: path
    /// combination number, barrier-meeting choice number and first-level search choice
    /// number, each counted from 0 in enumeration order? Units are dealt round robin,
    /// offset per combination and meeting so that small searches spread too.
    pub fn owns(&self, combination: u64, meeting: u64, choice: u128) -> bool {
        self.owned_in(combination, meeting, choice, 1) == 1
    }

    /// How many of the choices `first..first + len` of `(combination, meeting)` this
    /// shard owns.
    pub fn owned_in(&self, combination: u64, meeting: u64, first: u128, len: u128) -> u128 {
        let (n, i) = (self.count as u128, self.index as u128);
        // Numbers below `a` that are `i` modulo `n`.
        let below = |a: u128| a / n + u128::from(a % n > i);
        let start = combination as u128 + meeting as u128 + first;
        below(start + len) - below(start)
    }
}

/// Work units per shard that a sharded run aims for, per path combination when it deals
/// out whole combinations, per asmo order when it deals out parts of each search: enough
/// for the shards to balance, few enough that the nodes above the units, which every
/// shard visits, stay a small part of the work.
pub(crate) const UNITS_PER_SHARD: u64 = 8;

/// The number of leading reads whose sources, with the asmo order, make a search's
/// first-level choice (a work unit for sharding): the fewest reads giving at least
/// `target` combinations of sources, or all reads. `widths` are the reads' numbers of
/// sources in search order.
pub(crate) fn split_depth(widths: &[usize], target: u128) -> usize {
    let mut units = 1u128;
    for (d, &w) in widths.iter().enumerate() {
        if units >= target {
            return d;
        }
        units = units.saturating_mul(w as u128);
    }
    widths.len()
}

impl Default for EnumOptions {
    fn default() -> Self {
        EnumOptions {
            model: ModelOptions::default(),
            unroll: 2,
            max_candidates: None,
            max_paths: 100_000,
            no_thin_air: false,
            timeout: None,
            max_path_combinations: 10_000_000,
            naive: false,
            progress: None,
            shard: None,
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

/// One candidate execution, with its values and derived relations.
pub struct CandidateView<'a> {
    pub statics: &'a Statics,
    pub rf: &'a Rel,
    pub rfinit: &'a EventSet,
    pub asmo: &'a Rel,
    pub values: &'a Values,
    pub derived: &'a Derived,
    /// `pred consistent` holds.
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
    let per_thread = all_thread_paths(program, opts)?;
    stats.dropped_paths = per_thread.iter().map(|tp| tp.dropped).sum();
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
    // Sharding: with enough path combinations a shard takes whole combinations (so no
    // set-up is repeated across shards); with few, each search deals out its own units.
    let (combo_shard, search_shard) = match opts.shard {
        Some(sh) if combos.total() >= UNITS_PER_SHARD.saturating_mul(sh.count) => (Some(sh), None),
        sh => (None, sh),
    };
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
                if combo_shard.is_some_and(|sh| !sh.owns(index as u64, 0, 0)) {
                    return (acc, st, err);
                }
                let unit = (index as u64, search_shard);
                match combination(program, opts, visitor, &budget, unit, &combo) {
                    Ok(Some((a, s))) => {
                        st.add(&s);
                        (visitor.merge(acc, a), st, err)
                    }
                    Ok(None) => {
                        // A deadlocked combination has no work units: one shard counts it.
                        if opts.shard.is_none_or(|sh| sh.owns(index as u64, 0, 0)) {
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

/// The paths of every thread, within the limits.
pub(crate) fn all_thread_paths(
    program: &Program,
    opts: &EnumOptions,
) -> Result<Vec<ThreadPaths>, EnumError> {
    (program.threads.iter().enumerate())
        .map(|(t, thread)| {
            thread_paths(thread, t, opts.unroll, opts.max_paths).map_err(|e| EnumError {
                span: Span::default(),
                message: format!(
                    "thread P{} has more than {} paths at --unroll {}: lower --unroll or simplify the loops",
                    e.thread, e.limit, opts.unroll
                ),
            })
        })
        .collect()
}

/// Enumerates one path combination: `None` if it deadlocks at a barrier.
fn combination<V: Visitor>(
    program: &Program,
    opts: &EnumOptions,
    visitor: &V,
    budget: &Budget,
    (combination, shard): (u64, Option<Shard>),
    combo: &[&Path],
) -> Result<Option<(V::Acc, EnumStats)>, EnumError> {
    let lay = layout(program, combo);
    let scbarinsts = match meetings(program, &lay).map_err(|e| barrier_error(program, &lay, e))? {
        Meeting::Deadlock => return Ok(None),
        Meeting::Instances(v) => v,
    };
    let solver = ValueSolver::new(program, combo.to_vec(), &lay);
    let mut acc = V::Acc::default();
    let mut stats = EnumStats::default();
    for (meeting, scbarinst) in scbarinsts.into_iter().enumerate() {
        let statics = Statics::new(program, lay.events.clone(), scbarinst, &opts.model);
        check_instances(&statics.scbarinst, &statics.po, &statics.events)
            .map_err(|e| barrier_error(program, &lay, e))?;
        let terms = StaticTerms::new(&statics);
        let ctx = Ctx {
            program,
            s: &statics,
            terms: &terms,
            solver: &solver,
            opts,
            visitor,
            budget,
            unit: (combination, meeting as u64),
            shard,
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

/// An asmo with the model terms that depend on it alone.
pub(crate) type Asmo = (Rel, AsmoTerms);

/// What the rf × asmo enumeration of one path combination needs.
pub(crate) struct Ctx<'a, V> {
    pub program: &'a Program,
    pub s: &'a Statics,
    pub terms: &'a StaticTerms,
    pub solver: &'a ValueSolver<'a>,
    pub opts: &'a EnumOptions,
    pub visitor: &'a V,
    pub budget: &'a Budget,
    /// This search's path combination and barrier-meeting choice numbers (for sharding).
    pub unit: (u64, u64),
    /// The shard whose units this search explores (None: all of them).
    pub shard: Option<Shard>,
}

impl<V: Visitor> Ctx<'_, V> {
    /// Sharding hook: does this run own the subtree of first-level choice `choice`?
    /// Every search (plain or pruned) numbers its first-level choices from 0 in a fixed
    /// order and explores only the ones it owns; anything it counts outside those subtrees
    /// must be counted once over all shards.
    pub fn in_shard(&self, choice: u128) -> bool {
        self.shard
            .is_none_or(|sh| sh.owns(self.unit.0, self.unit.1, choice))
    }

    /// How many of the first-level choices `first..first + len` this run owns.
    pub fn owned_in(&self, first: u128, len: u128) -> u128 {
        match self.shard {
            None => len,
            Some(sh) => sh.owned_in(self.unit.0, self.unit.1, first, len),
        }
    }

    /// How many first-level choices a search should aim for per asmo order (see
    /// [`split_depth`]): 1 when not sharded.
    pub fn units_wanted(&self) -> u128 {
        self.shard
            .map_or(1, |sh| UNITS_PER_SHARD.saturating_mul(sh.count) as u128)
    }

    /// Counts `n` candidates cut away without being examined.
    pub fn prune(&self, st: &mut EnumStats, n: u64) {
        st.pruned = st.pruned.saturating_add(n);
        if let Some(p) = &self.opts.progress {
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
        (asmo, asmo_terms): &Asmo,
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
        let cand = Candidate { rf, rfinit, asmo };
        let derived = Derived::compute_with(self.s, self.terms, asmo_terms, cand);
        let consistent = derived.consistent(self.s, cand);
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
                asmo,
                values,
                derived: &derived,
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

    #[test]
    fn shards_partition_the_units_and_count_ranges_exactly() {
        for count in 1..6u64 {
            for (c, m) in [(0u64, 0u64), (3, 1), (7, 2)] {
                for first in 0..12u128 {
                    for len in 0..14u128 {
                        let mut total = 0;
                        for index in 0..count {
                            let sh = Shard { index, count };
                            let owned = (first..first + len).filter(|&u| sh.owns(c, m, u)).count();
                            assert_eq!(sh.owned_in(c, m, first, len), owned as u128);
                            total += owned;
                        }
                        // Every unit in exactly one shard.
                        assert_eq!(total as u128, len);
                    }
                }
            }
        }
    }

    #[test]
    fn the_split_takes_reads_until_enough_units() {
        assert_eq!(split_depth(&[], 32), 0);
        assert_eq!(split_depth(&[2; 4], 32), 4);
        assert_eq!(split_depth(&[2; 10], 32), 5); // 2^5 = 32
        assert_eq!(split_depth(&[300, 2], 32), 1);
        assert_eq!(split_depth(&[2, 2], 1), 0); // not sharded: the asmo order alone
        assert_eq!(split_depth(&[0, 5, 5, 5, 5], 32), 5); // no rf at all: no unit
    }
}
