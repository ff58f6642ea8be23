//! The pruned search: asmo first (each complete order is one subtree), then rf read by
//! read in program order, cutting a subtree as soon as the partial execution can have no
//! consistent completion.
//!
//! Why the cuts are sound. Along a branch of the search, `asmo` is fixed and `rf`/`RFINIT`
//! only gain pairs; `Ctx::may_complete` (model.rs) answers false only when no completion
//! can be consistent. For a cat model, only the checks that `vkherd_cat::mono` proves
//! monotone in rf (antitone for `~empty`) are asked; for the hand-written Vulkan model,
//! every relation of `consistent` is monotone:
//! - `rs`, `hypors` depend on asmo only; `sw` = release . (rf & mutordatom) . acquire + a
//!   static term; `ithb`, `hb`, the av/vis chains and `locord` are built from those with
//!   `.`, `&` with static relations, `rc`, `+` and closures; `fr` = ~rf.((W->W)&locord) +
//!   ~rf.asmo + [RFINIT].sloc.[W] - iden; no relation uses a complement or difference of
//!   something that grows (`- iden`, `- mutordatom` subtract static relations);
//! - so `locord + rf + fr + asmo` only grows (a cycle stays), and so does
//!   `(rf . [R-A]) & twoplus([W] . locord)` (once non-empty, it stays).
//!
//! The same analysis, run by `vkherd_cat::mono` on vulkan.cat, lets both checks cut
//! (crates/cat/tests/language.rs). Values: a branch decision whose operands are
//! determined by the reads assigned so far stays determined the same way (see
//! `ValueSolver::partial_agrees`), so a disagreeing branch cuts the subtree too.
//!
//! The cuts are disabled when the visitor needs inconsistent candidates.

use crate::candidates::{rf_options, AsmoOrders};
use crate::values::Source;
use crate::{Ctx, EnumError, EnumStats, Visitor};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use vkherd_model::{EventSet, Rel};

/// Depth down to which subtrees are handed to rayon as separate tasks.
const PARALLEL_DEPTH: usize = 3;

/// The mutable state of one branch of the search.
#[derive(Clone)]
struct Partial {
    rf_src: Vec<Option<Source>>,
    rf: Rel,
    rfinit: EventSet,
}

struct Search<'c, 'a, V> {
    ctx: &'c Ctx<'a, V>,
    /// Reads in assignment order (thread by thread, in program order).
    reads: Vec<usize>,
    options: Vec<Vec<Source>>,
    /// `suffix[d]` = number of rf completions below depth d (saturating).
    suffix: Vec<u64>,
    overflow: AtomicBool,
}

pub(crate) fn enumerate<V: Visitor>(ctx: &Ctx<'_, V>) -> Result<(V::Acc, EnumStats), EnumError> {
    let s = ctx.s;
    let all = rf_options(ctx.program, s);
    let reads: Vec<usize> = (0..s.n).filter(|&e| all[e].is_some()).collect();
    let options: Vec<Vec<Source>> = reads
        .iter()
        .map(|&e| all[e].clone().expect("read"))
        .collect();
    let mut suffix = vec![1u64; reads.len() + 1];
    for d in (0..reads.len()).rev() {
        suffix[d] = suffix[d + 1].saturating_mul(options[d].len() as u64);
    }
    let search = Search {
        ctx,
        reads,
        options,
        suffix,
        overflow: AtomicBool::new(false),
    };
    let root = Partial {
        rf_src: vec![None; s.n],
        rf: Rel::empty(s.n),
        rfinit: EventSet::new(s.n),
    };
    // asmo orders are generated lazily (there may be n! of them) and stop with the budget.
    let budget = ctx.budget;
    let result = AsmoOrders::new(ctx.program, s)
        .take_while(|_| budget.alive())
        .par_bridge()
        .map(|a| {
            let asmo: Asmo = ctx.asmo(a);
            let mut p = root.clone();
            search.node(&asmo, 0, &mut p)
        })
        .reduce(
            || (V::Acc::default(), EnumStats::default()),
            |a, b| search.merge(a, b),
        );
    if search.overflow.load(Ordering::Relaxed) {
        return Err(Ctx::<V>::thin_air_error());
    }
    Ok(result)
}

use crate::Asmo;

impl<V: Visitor> Search<'_, '_, V> {
    fn merge(
        &self,
        (a1, mut s1): (V::Acc, EnumStats),
        (a2, s2): (V::Acc, EnumStats),
    ) -> (V::Acc, EnumStats) {
        s1.add(&s2);
        (self.ctx.visitor.merge(a1, a2), s1)
    }

    /// Can the partial execution still be completed into a consistent one?
    fn viable(&self, asmo: &Asmo, p: &Partial) -> bool {
        if !self.ctx.solver.partial_agrees(&p.rf_src) {
            return false;
        }
        self.ctx.may_complete(asmo, &p.rf, &p.rfinit)
    }

    /// Explores the subtree where reads `0..depth` are assigned as in `p` (restored on
    /// return).
    fn node(&self, asmo: &Asmo, depth: usize, p: &mut Partial) -> (V::Acc, EnumStats) {
        let mut acc = V::Acc::default();
        let mut st = EnumStats::default();
        if depth == self.reads.len() {
            self.leaf(asmo, p, &mut acc, &mut st);
            return (acc, st);
        }
        if !self.ctx.budget.alive() {
            return (acc, st);
        }
        // The root's check covers asmo alone; deeper checks cover each new rf pair.
        if !self.viable(asmo, p) {
            st.pruned += self.suffix[depth];
            return (acc, st);
        }
        let e = self.reads[depth];
        if depth < PARALLEL_DEPTH {
            return self.options[depth]
                .par_iter()
                .map(|&src| {
                    let mut q = p.clone();
                    assign(&mut q, e, src);
                    self.node(asmo, depth + 1, &mut q)
                })
                .reduce(
                    || (V::Acc::default(), EnumStats::default()),
                    |a, b| self.merge(a, b),
                );
        }
        for &src in &self.options[depth] {
            assign(p, e, src);
            let (a, s) = self.node(asmo, depth + 1, p);
            unassign(p, e, src);
            acc = self.ctx.visitor.merge(acc, a);
            st.add(&s);
        }
        (acc, st)
    }

    fn leaf(&self, asmo: &Asmo, p: &Partial, acc: &mut V::Acc, st: &mut EnumStats) {
        if !self.ctx.budget.take() {
            return;
        }
        let Ok(solutions) = self.ctx.solver.solve(&p.rf_src) else {
            self.overflow.store(true, Ordering::Relaxed);
            return;
        };
        self.ctx
            .visit_leaf(acc, st, &p.rf, &p.rfinit, asmo, &solutions);
    }
}

fn assign(p: &mut Partial, e: usize, src: Source) {
    p.rf_src[e] = Some(src);
    match src {
        Source::Init => p.rfinit.insert(e),
        Source::Write(w) => p.rf.insert(w, e),
    }
}

fn unassign(p: &mut Partial, e: usize, src: Source) {
    p.rf_src[e] = None;
    match src {
        Source::Init => p.rfinit.remove(e),
        Source::Write(w) => p.rf.remove(w, e),
    }
}
