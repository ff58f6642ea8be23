//! Exhaustive enumeration of the candidate executions of a [`Program`]: bounded paths,
//! barrier meetings, rf and asmo choices and their values, handed one by one to a
//! [`Visitor`] that judges them against the model. Parallel with rayon; the result is
//! independent of the thread count because visitors merge commutatively.

pub mod candidates;
pub mod combine;
pub mod outcomes;
pub mod paths;
pub mod values;

use candidates::{asmo_options, rf_options};
use combine::{check_instances, layout, meetings, Meeting};
use paths::{thread_paths, Path, ThreadPaths};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use values::{Source, ValueSolver, Values};
use vkherd_litmus::Span;
use vkherd_model::{EventSet, Instruction, ModelOptions, Program, Rel, Statics};

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
}

impl Default for EnumOptions {
    fn default() -> Self {
        EnumOptions {
            model: ModelOptions::default(),
            unroll: 2,
            max_candidates: None,
            max_paths: 100_000,
            no_thin_air: false,
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
    /// The run stopped at `max_candidates`: results are partial.
    pub partial: bool,
}

/// One candidate execution, with its values.
pub struct CandidateView<'a> {
    pub statics: &'a Statics,
    pub rf: &'a Rel,
    pub rfinit: &'a EventSet,
    pub asmo: &'a Rel,
    pub values: &'a Values,
}

/// Judges candidates and accumulates results. `merge` must be commutative and
/// associative so that results do not depend on how rayon splits the work.
pub trait Visitor: Sync {
    type Acc: Send + Default;
    fn visit(&self, acc: &mut Self::Acc, c: &CandidateView<'_>);
    fn merge(&self, a: Self::Acc, b: Self::Acc) -> Self::Acc;
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
    let mut acc = V::Acc::default();
    let budget = Budget::new(opts.max_candidates);
    for combo in path_combinations(&per_thread) {
        let lay = layout(program, &combo);
        let meeting = meetings(program, &lay).map_err(|e| barrier_error(program, &lay, e))?;
        let scbarinsts = match meeting {
            Meeting::Deadlock => {
                stats.deadlocked_paths += 1;
                continue;
            }
            Meeting::Instances(v) => v,
        };
        let solver = ValueSolver::new(program, combo.clone(), &lay);
        for scbarinst in scbarinsts {
            let statics = Statics::new(program, lay.events.clone(), scbarinst, &opts.model);
            check_instances(&statics.scbarinst, &statics.po, &statics.events)
                .map_err(|e| barrier_error(program, &lay, e))?;
            let part = enumerate_statics(program, &statics, &solver, opts, visitor, &budget)?;
            stats.candidates += part.1.candidates;
            stats.value_mismatch += part.1.value_mismatch;
            stats.thin_air += part.1.thin_air;
            acc = visitor.merge(acc, part.0);
            if budget.exhausted() {
                stats.partial = true;
                return Ok((acc, stats));
            }
        }
    }
    Ok((acc, stats))
}

/// A shared cap on the number of candidates examined.
struct Budget {
    limit: Option<u64>,
    used: AtomicU64,
    hit: AtomicBool,
}

impl Budget {
    fn new(limit: Option<u64>) -> Self {
        Budget {
            limit,
            used: AtomicU64::new(0),
            hit: AtomicBool::new(false),
        }
    }
    /// Takes one candidate from the budget; false once the budget is spent.
    fn take(&self) -> bool {
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
    fn exhausted(&self) -> bool {
        self.hit.load(Ordering::Relaxed)
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

/// Every combination of one path per thread, in a fixed order.
fn path_combinations(per_thread: &[ThreadPaths]) -> Vec<Vec<&Path>> {
    let mut combos: Vec<Vec<&Path>> = vec![Vec::new()];
    for tp in per_thread {
        let mut next = Vec::with_capacity(combos.len() * tp.paths.len());
        for c in &combos {
            for p in &tp.paths {
                let mut c2 = c.clone();
                c2.push(p);
                next.push(c2);
            }
        }
        combos = next;
    }
    combos
}

/// Enumerates rf × asmo on one path combination with fixed barrier meetings.
fn enumerate_statics<V: Visitor>(
    program: &Program,
    s: &Statics,
    solver: &ValueSolver<'_>,
    opts: &EnumOptions,
    visitor: &V,
    budget: &Budget,
) -> Result<(V::Acc, EnumStats), EnumError> {
    let options = rf_options(program, s);
    let reads: Vec<usize> = (0..s.n).filter(|&e| options[e].is_some()).collect();
    let radices: Vec<u64> = reads
        .iter()
        .map(|&e| options[e].as_ref().map_or(0, |o| o.len() as u64))
        .collect();
    let total_rf = radices.iter().try_fold(1u64, |acc, &r| acc.checked_mul(r));
    let Some(total_rf) = total_rf else {
        return Err(EnumError {
            span: Span::default(),
            message: "too many reads-from candidates to enumerate (more than 2^64)".into(),
        });
    };
    let asmos = asmo_options(s);
    let thin_air_overflow = AtomicBool::new(false);
    let result = (0..total_rf)
        .into_par_iter()
        .fold(
            || (V::Acc::default(), EnumStats::default()),
            |(mut acc, mut st), index| {
                // Decode the mixed-radix index into one source per read.
                let mut rf_src: Vec<Option<Source>> = vec![None; s.n];
                let mut rest = index;
                let mut rf = Rel::empty(s.n);
                let mut rfinit = EventSet::new(s.n);
                for (k, &e) in reads.iter().enumerate() {
                    let opts_e = options[e].as_ref().expect("read");
                    let src = opts_e[(rest % radices[k]) as usize];
                    rest /= radices[k];
                    rf_src[e] = Some(src);
                    match src {
                        Source::Init => rfinit.insert(e),
                        Source::Write(w) => rf.insert(w, e),
                    }
                }
                let solutions = match solver.solve(&rf_src) {
                    Ok(v) => v,
                    Err(_) => {
                        thin_air_overflow.store(true, Ordering::Relaxed);
                        return (acc, st);
                    }
                };
                for asmo in &asmos {
                    if !budget.take() {
                        return (acc, st);
                    }
                    st.candidates += 1;
                    if solutions.is_empty() {
                        st.value_mismatch += 1;
                    }
                    for values in &solutions {
                        if values.thin_air {
                            st.thin_air += 1;
                            if opts.no_thin_air {
                                continue;
                            }
                        }
                        let view = CandidateView {
                            statics: s,
                            rf: &rf,
                            rfinit: &rfinit,
                            asmo,
                            values,
                        };
                        visitor.visit(&mut acc, &view);
                    }
                }
                (acc, st)
            },
        )
        .reduce(
            || (V::Acc::default(), EnumStats::default()),
            |(a1, s1), (a2, s2)| {
                (
                    visitor.merge(a1, a2),
                    EnumStats {
                        candidates: s1.candidates + s2.candidates,
                        value_mismatch: s1.value_mismatch + s2.value_mismatch,
                        thin_air: s1.thin_air + s2.thin_air,
                        ..EnumStats::default()
                    },
                )
            },
        );
    if thin_air_overflow.load(Ordering::Relaxed) {
        return Err(EnumError {
            span: Span::default(),
            message: format!(
                "too many thin-air value assignments to try (more than {}): the test has long cycles of values through rf",
                values::MAX_THIN_AIR_ASSIGNMENTS
            ),
        });
    }
    Ok(result)
}
