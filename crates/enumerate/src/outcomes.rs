//! The herd-style outcome of a `.litmus` test: final states of the consistent executions,
//! condition counts and the flags the model raised (semantics.md "Outcomes").

use crate::engine::{Judgement, Wanted};
use crate::error::EnumError;
use crate::options::{EnumOptions, Speedcheck};
use crate::stats::EnumStats;
use crate::visitor::{CandidateView, Visitor};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::RwLock;
use vkherd_model::{ModelFlag, Observable, Program, Quantifier, StaticSet, Statics};

/// What is known about one final state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StateInfo {
    /// (execution, final state) pairs reaching it.
    pub count: u64,
    /// Some execution that does not raise the data race ([`ModelFlag::DataRace`])
    /// reaches it: without one, it is marked `# racy`.
    pub race_free: bool,
    /// Some execution that raises no flag of the model reaches it: without one (and
    /// racy executions among them), it is marked `# flagged`.
    pub unflagged: bool,
    /// Some execution that is not thin air reaches it.
    pub not_thin_air: bool,
    /// It satisfies the final condition.
    pub satisfies: bool,
}

/// The outcome of enumerating a test.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outcomes {
    /// Final states, keyed by their values in column order ([`Program::observed`]).
    pub states: BTreeMap<Vec<i64>, StateInfo>,
    /// Counted (execution, final state) pairs satisfying / not satisfying the condition.
    pub positive: u64,
    pub negative: u64,
    /// The flags counted executions raise (herd7's `Flag NAME` lines), in report order.
    pub flags: BTreeSet<ModelFlag>,
    /// Consistent executions (before the filter).
    pub consistent: u64,
    /// Counted executions that are thin air.
    pub thin_air: u64,
}

impl Outcomes {
    /// The data race is among the flags raised (`Flag data-race`).
    pub fn data_race(&self) -> bool {
        self.flags.contains(&ModelFlag::DataRace)
    }

    /// Some flag other than the data race is raised.
    pub fn other_flags(&self) -> bool {
        self.flags.iter().any(|f| *f != ModelFlag::DataRace)
    }

    fn merge(mut self, mut other: Outcomes) -> Outcomes {
        // Insert the smaller map into the larger: merging is commutative, and this keeps
        // the reductions of a run with many states linear rather than quadratic.
        if self.states.len() < other.states.len() {
            std::mem::swap(&mut self.states, &mut other.states);
        }
        for (k, v) in other.states {
            let e = self.states.entry(k).or_default();
            e.count += v.count;
            e.race_free |= v.race_free;
            e.unflagged |= v.unflagged;
            e.not_thin_air |= v.not_thin_air;
            e.satisfies |= v.satisfies;
        }
        self.positive += other.positive;
        self.negative += other.negative;
        self.flags.extend(other.flags);
        self.consistent += other.consistent;
        self.thin_air += other.thin_air;
        self
    }
}

/// Collects [`Outcomes`] from consistent candidates.
pub struct OutcomeCollector<'p> {
    pub program: &'p Program,
    /// The engine's flags, in the order of its flag bits ([`crate::Engine::flags`]).
    flags: Vec<ModelFlag>,
    /// The bit of [`ModelFlag::DataRace`] among them, if the model has it.
    race_bits: u64,
    pub speedcheck: Speedcheck,
    /// Only the set of states and their marks are needed (counts are not exact).
    pub states_only: bool,
    /// `Fast`: a kept execution has been found.
    settled: AtomicBool,
    /// `states_only`: states already reached by an execution that raises no flag and is
    /// not thin air (their marks cannot change any more).
    saturated: RwLock<BTreeSet<Vec<i64>>>,
}

impl<'p> OutcomeCollector<'p> {
    pub fn new(
        program: &'p Program,
        flags: Vec<ModelFlag>,
        speedcheck: Speedcheck,
        states_only: bool,
    ) -> Self {
        let race_bits = (flags.iter().enumerate())
            .filter(|(_, f)| **f == ModelFlag::DataRace)
            .fold(0, |bits, (i, _)| bits | 1 << i);
        OutcomeCollector {
            program,
            flags,
            race_bits,
            speedcheck,
            states_only,
            settled: AtomicBool::new(false),
            saturated: RwLock::new(BTreeSet::new()),
        }
    }

    /// Does an execution whose state has this condition value count?
    fn matters(&self, satisfies: bool) -> bool {
        if self.speedcheck == Speedcheck::Off {
            return true;
        }
        match self.program.condition.as_ref().map(|c| c.quantifier) {
            None | Some(Quantifier::Exists) | Some(Quantifier::NotExists) => satisfies,
            Some(Quantifier::Forall) => !satisfies,
        }
    }
}

/// The final value(s) of each observable of an execution: registers at the end of their
/// thread's path; a location, every write to it that no other write to it follows in the
/// model's `co` (Vulkan: `(locord + asmo)+`; its initial value if it has no write). An
/// inconsistent candidate (explanations, capture.rs) may have a cyclic `co`: there a write
/// followed only by writes that also precede it counts as last too, so that the writes of a
/// cycle give their values; a consistent candidate of the bundled models has an acyclic
/// `co`, where the rule is the plain one.
pub(crate) fn final_values<J: Judgement>(
    program: &Program,
    s: &Statics,
    c: &CandidateView<'_, J>,
) -> Vec<Vec<i64>> {
    // co is asked for (see `wanted`) only when a location is observed.
    let order = c.eval.rel(FINAL_ORDER_AT);
    program
        .observed
        .iter()
        .map(|o| match *o {
            Observable::Reg { thread, reg } => {
                vec![c.values.regs[thread]
                    .get(reg as usize)
                    .copied()
                    .unwrap_or(0)]
            }
            Observable::Loc(l) => {
                let writes: Vec<usize> = s
                    .set(StaticSet::W)
                    .iter()
                    .filter(|&w| s.events()[w].location == Some(l))
                    .collect();
                if writes.is_empty() {
                    return vec![program.locations[l].init];
                }
                let order = order.expect("a model defines co (see docs/models.md)");
                let last = |w: usize| {
                    writes.iter().all(|&v| {
                        v == w || !order.contains(w, v) || (!c.consistent && order.contains(v, w))
                    })
                };
                let mut vals: Vec<i64> = writes
                    .iter()
                    .filter(|&&w| last(w))
                    .map(|&w| c.values.write[w])
                    .collect();
                vals.sort_unstable();
                vals.dedup();
                vals
            }
        })
        .collect()
}

/// Calls `f` on every element of the cartesian product of `choices`, the last column
/// varying fastest. An odometer, not a recursion: a test may observe thousands of
/// columns (`locations` lists registers of every thread).
fn for_each_product(choices: &[Vec<i64>], f: &mut dyn FnMut(&[i64])) {
    if choices.iter().any(Vec::is_empty) {
        return;
    }
    let mut digits = vec![0usize; choices.len()];
    let mut cur: Vec<i64> = choices.iter().map(|c| c[0]).collect();
    loop {
        f(&cur);
        // Advance the last column that has a next value; reset the ones after it.
        let Some(k) = (0..choices.len())
            .rev()
            .find(|&k| digits[k] + 1 < choices[k].len())
        else {
            return;
        };
        digits[k] += 1;
        cur[k] = choices[k][digits[k]];
        for later in k + 1..choices.len() {
            digits[later] = 0;
            cur[later] = choices[later][0];
        }
    }
}

impl Visitor for OutcomeCollector<'_> {
    type Acc = Outcomes;

    fn visit<J: Judgement>(&self, acc: &mut Outcomes, c: &CandidateView<'_, J>) {
        let s = c.statics;
        if !c.consistent {
            return;
        }
        acc.consistent += 1;
        let raised = c.eval.flag_bits();
        let racy = raised & self.race_bits != 0;
        let program = self.program;
        let columns = final_values(program, s, c);
        let mut counted_any = false;
        for_each_product(&columns, &mut |state| {
            let value = |o: Observable| {
                let i = program
                    .observed
                    .iter()
                    .position(|x| *x == o)
                    .expect("observed");
                state[i]
            };
            if let Some(f) = &program.filter {
                if !f.eval(&value) {
                    return;
                }
            }
            let satisfies = program
                .condition
                .as_ref()
                .is_none_or(|fc| fc.cond.eval(&value));
            if !self.matters(satisfies) {
                return;
            }
            counted_any = true;
            if self.speedcheck == Speedcheck::Fast {
                self.settled.store(true, Ordering::Relaxed);
            }
            if self.states_only && raised == 0 && !c.values.thin_air {
                self.saturated
                    .write()
                    .expect("no panic while held")
                    .insert(state.to_vec());
            }
            if satisfies {
                acc.positive += 1;
            } else {
                acc.negative += 1;
            }
            let e = acc.states.entry(state.to_vec()).or_default();
            e.count += 1;
            e.race_free |= !racy;
            e.unflagged |= raised == 0;
            e.not_thin_air |= !c.values.thin_air;
            e.satisfies = satisfies;
        });
        if counted_any {
            for (i, flag) in self.flags.iter().enumerate() {
                if raised >> i & 1 == 1 && !acc.flags.contains(flag) {
                    acc.flags.insert(flag.clone());
                }
            }
            if c.values.thin_air {
                acc.thin_air += 1;
            }
        }
    }

    fn merge(&self, a: Outcomes, b: Outcomes) -> Outcomes {
        a.merge(b)
    }

    fn cuts_by_state(&self) -> bool {
        self.speedcheck != Speedcheck::Off || self.states_only
    }

    /// Sound because every completion of the subtree has the `known` columns:
    /// - the filter is false on them: no execution below is counted (in any mode);
    /// - speedcheck: the condition has the same value on every state below and it does
    ///   not matter: none is kept;
    /// - states only: every column is known, so every execution below reaches this one
    ///   state, which is already listed with its final marks (a race-free, not thin-air
    ///   execution reached it, and `satisfies` is a function of the state). Only counts
    ///   and the flags raised could change, and this mode reports neither. A state seen
    ///   only flagged (or thin air) so far is never skipped: an execution below that
    ///   raises no flag (or the data race only) would clear its mark.
    fn skip(&self, known: &[Option<i64>]) -> bool {
        let program = self.program;
        let value = |o: Observable| {
            let i = program.observed.iter().position(|x| *x == o)?;
            known[i]
        };
        if let Some(f) = &program.filter {
            if f.eval_partial(&value) == Some(false) {
                return true;
            }
        }
        if self.speedcheck != Speedcheck::Off {
            let satisfies = program
                .condition
                .as_ref()
                .map_or(Some(true), |fc| fc.cond.eval_partial(&value));
            if satisfies.is_some_and(|s| !self.matters(s)) {
                return true;
            }
        }
        if self.states_only {
            if let Some(state) = known.iter().copied().collect::<Option<Vec<i64>>>() {
                return self
                    .saturated
                    .read()
                    .expect("no panic while held")
                    .contains(&state);
            }
        }
        false
    }

    fn done(&self) -> bool {
        self.speedcheck == Speedcheck::Fast && self.settled.load(Ordering::Relaxed)
    }

    fn wanted(&self) -> Vec<&'static str> {
        let observes_location = self
            .program
            .observed
            .iter()
            .any(|o| matches!(o, Observable::Loc(_)));
        if observes_location {
            vec![FINAL_ORDER]
        } else {
            vec![]
        }
    }
}

/// The model relation whose maximal writes give a location's final value. Every visitor
/// that reads final values ([`final_values`]) names it first in its `wanted` list.
pub const FINAL_ORDER: &str = "co";

/// [`FINAL_ORDER`]'s handle: first in the `wanted` list.
const FINAL_ORDER_AT: Wanted = Wanted(0);

/// Enumerates `program` and collects its outcomes.
pub fn collect_outcomes(
    program: &Program,
    opts: &EnumOptions,
) -> Result<(Outcomes, EnumStats), EnumError> {
    collect_outcomes_in(program, opts, &crate::Budget::of(&opts.run))
}

/// [`collect_outcomes`] within `budget`, shared with the test's other searches.
pub fn collect_outcomes_in(
    program: &Program,
    opts: &EnumOptions,
    budget: &crate::Budget,
) -> Result<(Outcomes, EnumStats), EnumError> {
    let collector = OutcomeCollector::new(
        program,
        opts.engine.flags(),
        opts.run.speedcheck,
        opts.run.states_only,
    );
    crate::driver::enumerate_in(program, opts, &collector, budget)
}

#[cfg(test)]
mod tests {
    use super::for_each_product;

    fn product(choices: &[Vec<i64>]) -> Vec<Vec<i64>> {
        let mut out = Vec::new();
        for_each_product(choices, &mut |s| out.push(s.to_vec()));
        out
    }

    #[test]
    fn products_list_every_state_last_column_fastest() {
        assert_eq!(
            product(&[vec![1, 2], vec![7], vec![3, 4]]),
            [[1, 7, 3], [1, 7, 4], [2, 7, 3], [2, 7, 4]]
        );
        assert_eq!(product(&[]), [Vec::<i64>::new()]);
        assert!(product(&[vec![1], vec![]]).is_empty());
    }

    #[test]
    fn products_of_many_columns_need_no_stack() {
        // One column per observed register of a large `locations` list: a recursion per
        // column overflowed a worker thread's stack.
        let choices = vec![vec![0i64]; 1_000_000];
        assert_eq!(product(&choices).len(), 1);
    }
}
