//! The herd-style outcome of a `.litmus` test: final states of the consistent executions,
//! condition counts and the data-race flag (semantics.md "Outcomes").

use crate::{CandidateView, Visitor};
use std::collections::BTreeMap;
use vkherd_model::{Observable, Program, Statics};

/// What is known about one final state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StateInfo {
    /// (execution, final state) pairs reaching it.
    pub count: u64,
    /// Some race-free execution reaches it.
    pub race_free: bool,
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
    /// Some counted execution is racy.
    pub flag_data_race: bool,
    /// Consistent executions (before the filter).
    pub consistent: u64,
    /// Counted executions that are thin air.
    pub thin_air: u64,
}

impl Outcomes {
    fn merge(mut self, other: Outcomes) -> Outcomes {
        for (k, v) in other.states {
            let e = self.states.entry(k).or_default();
            e.count += v.count;
            e.race_free |= v.race_free;
            e.not_thin_air |= v.not_thin_air;
            e.satisfies |= v.satisfies;
        }
        self.positive += other.positive;
        self.negative += other.negative;
        self.flag_data_race |= other.flag_data_race;
        self.consistent += other.consistent;
        self.thin_air += other.thin_air;
        self
    }
}

/// Collects [`Outcomes`] from consistent candidates.
pub struct OutcomeCollector<'p> {
    pub program: &'p Program,
}

/// The final value(s) of each observable of an execution: registers at the end of their
/// thread's path; a location, every write to it that no other write to it follows in the
/// model's `co` (Vulkan: `(locord + asmo)+`; its initial value if it has no write).
fn final_values(program: &Program, s: &Statics, c: &CandidateView<'_>) -> Vec<Vec<i64>> {
    // co is asked for (see `wanted`) only when a location is observed.
    let order = c.eval.rel(FINAL_ORDER);
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
                let writes: Vec<usize> =
                    s.w.iter()
                        .filter(|&w| s.events[w].location == Some(l))
                        .collect();
                if writes.is_empty() {
                    return vec![program.locations[l].init];
                }
                let mut vals: Vec<i64> = writes
                    .iter()
                    .filter(|&&w| {
                        let order = order.expect("a model defines co (see docs/models.md)");
                        !writes.iter().any(|&v| v != w && order.contains(w, v))
                    })
                    .map(|&w| c.values.write[w])
                    .collect();
                vals.sort_unstable();
                vals.dedup();
                vals
            }
        })
        .collect()
}

/// Calls `f` on every element of the cartesian product of `choices`.
fn for_each_product(choices: &[Vec<i64>], f: &mut dyn FnMut(&[i64])) {
    fn go(choices: &[Vec<i64>], cur: &mut Vec<i64>, f: &mut dyn FnMut(&[i64])) {
        if cur.len() == choices.len() {
            f(cur);
            return;
        }
        for &v in &choices[cur.len()] {
            cur.push(v);
            go(choices, cur, f);
            cur.pop();
        }
    }
    go(choices, &mut Vec::with_capacity(choices.len()), f)
}

impl Visitor for OutcomeCollector<'_> {
    type Acc = Outcomes;

    fn visit(&self, acc: &mut Outcomes, c: &CandidateView<'_>) {
        let s = c.statics;
        if !c.consistent {
            return;
        }
        acc.consistent += 1;
        let racy = c.eval.racy();
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
            counted_any = true;
            let satisfies = program
                .condition
                .as_ref()
                .is_none_or(|fc| fc.cond.eval(&value));
            if satisfies {
                acc.positive += 1;
            } else {
                acc.negative += 1;
            }
            let e = acc.states.entry(state.to_vec()).or_default();
            e.count += 1;
            e.race_free |= !racy;
            e.not_thin_air |= !c.values.thin_air;
            e.satisfies = satisfies;
        });
        if counted_any {
            acc.flag_data_race |= racy;
            if c.values.thin_air {
                acc.thin_air += 1;
            }
        }
    }

    fn merge(&self, a: Outcomes, b: Outcomes) -> Outcomes {
        a.merge(b)
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

/// The model relation whose maximal writes give a location's final value.
pub const FINAL_ORDER: &str = "co";

/// Enumerates `program` and collects its outcomes.
pub fn collect_outcomes(
    program: &Program,
    opts: &crate::EnumOptions,
) -> Result<(Outcomes, crate::EnumStats), crate::EnumError> {
    crate::enumerate(program, opts, &OutcomeCollector { program })
}
