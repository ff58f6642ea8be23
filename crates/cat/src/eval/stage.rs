//! The third pass: order what is left to compute into a per-asmo program and
//! per-candidate slots, and lay out each candidate slot's operands for the traversal of
//! [`super::Prepared`]'s evaluation.
//!
//! Only the nodes the roots need (through the specialised steps) get a slot; they are
//! taken in index order, which is topological, so the per-asmo program can run in
//! order. Aliases then take their target's location.

use super::program::{Input, Loc, Program, Step};
use crate::base::Value;
use crate::ir::N;
use crate::kernel::Factor;

/// Where a candidate step's operand is, resolved once per preparation so that the
/// traversal reads slots, not nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Arg {
    /// A known value, with whether it is empty.
    Known(bool),
    Asmo(u32),
    Cand(u32),
}

/// One candidate slot's step, as the traversal sees it.
#[derive(Debug, Clone)]
pub(super) struct Plan {
    /// The node computed in this slot.
    pub(super) node: N,
    /// The step is an input (rf, RFINIT, asmo), not computed from operands.
    pub(super) input: Option<Input>,
    /// The operands (a range of [`Schedule::args`]), each with whether an empty value
    /// of it makes the step empty (every operand of `&`, the relation factors of `;`).
    pub(super) args: std::ops::Range<u32>,
}

/// The result of the pass, besides the slots written into the program's locations.
pub(super) struct Schedule {
    /// The per-asmo nodes, in the order they are computed.
    pub(super) asmo_program: Vec<N>,
    /// The candidate slots' steps, by slot, and their operands.
    pub(super) plans: Vec<Plan>,
    pub(super) args: Vec<(Arg, bool)>,
}

/// Assigns the slots of the nodes `roots` need and builds their plans.
pub(super) fn stage(p: &mut Program<'_>, roots: &[N]) -> Schedule {
    let full = needed(p, roots);
    let mut asmo_program = Vec::new();
    let mut asmo_slots = 0u32;
    let mut cand_slots = 0u32;
    for (i, &needed) in full.iter().enumerate() {
        if !needed {
            continue;
        }
        match p.loc[i] {
            Loc::Asmo(_) if p.steps[i].is_some() => {
                p.loc[i] = Loc::Asmo(asmo_slots);
                asmo_slots += 1;
                asmo_program.push(i as N);
            }
            Loc::Cand(_) if p.steps[i].is_some() => {
                p.loc[i] = Loc::Cand(cand_slots);
                cand_slots += 1;
            }
            _ => {}
        }
    }
    // Aliases copy the location of their target, whose slot is now known.
    for i in 0..p.loc.len() {
        let target = p.alias[i] as usize;
        if target != i {
            p.loc[i] = p.loc[target];
        }
    }
    let (plans, args) = make_plans(p, cand_slots as usize);
    Schedule {
        asmo_program,
        plans,
        args,
    }
}

/// Marks the non-known nodes that `roots` need.
fn needed(p: &Program<'_>, roots: &[N]) -> Vec<bool> {
    let mut need = vec![false; p.loc.len()];
    let mut stack: Vec<N> = roots.to_vec();
    while let Some(n) = stack.pop() {
        let n = p.resolve(n);
        if need[n as usize] {
            continue;
        }
        need[n as usize] = true;
        if let Some(step) = &p.steps[n as usize] {
            step.each_operand(|o| stack.push(o));
        }
    }
    need
}

/// The plans of the `slots` candidate slots, once every slot is assigned.
fn make_plans(p: &Program<'_>, slots: usize) -> (Vec<Plan>, Vec<(Arg, bool)>) {
    let known_empty: Vec<bool> = p
        .known
        .iter()
        .map(|v| v.as_ref().is_some_and(Value::is_empty))
        .collect();
    let mut plans: Vec<Option<Plan>> = vec![None; slots];
    let mut args = Vec::new();
    for i in 0..p.loc.len() {
        let Loc::Cand(slot) = p.loc[i] else {
            continue;
        };
        if p.alias[i] != i as N || slot == u32::MAX {
            continue;
        }
        let step = p.steps[i].as_ref().expect("a step");
        let start = args.len() as u32;
        let arg = |o: N| match p.loc[o as usize] {
            Loc::Known(k) => Arg::Known(known_empty[k as usize]),
            Loc::Asmo(s) => Arg::Asmo(s),
            Loc::Cand(s) => Arg::Cand(s),
            Loc::InRec => unreachable!("inside a fixpoint"),
        };
        match step {
            Step::Inter(_, v) => args.extend(v.iter().map(|&o| (arg(o), true))),
            Step::Seq(factors) => args.extend(factors.iter().map(|f| match *f {
                Factor::Rel(x) => (arg(x), true),
                Factor::Restrict(x) => (arg(x), false),
            })),
            step => step.each_operand(|o| args.push((arg(o), false))),
        }
        let input = match step {
            Step::Input(input) => Some(*input),
            _ => None,
        };
        plans[slot as usize] = Some(Plan {
            node: i as N,
            input,
            args: start..args.len() as u32,
        });
    }
    let plans = plans
        .into_iter()
        .map(|p| p.expect("a plan per slot"))
        .collect();
    (plans, args)
}
