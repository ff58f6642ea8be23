//! Staged evaluation of a compiled model over the bit-matrix relations of one execution.
//!
//! [`Prepared::new`] runs once per path combination. It runs three passes over the
//! model's IR ([`crate::ir`]):
//! 1. [`specialise`]: on demand from the checks and the wanted relations, compute the
//!    static nodes they read and specialise the rest against those values (empty
//!    operands absorb or vanish, known operands fold into one constant, aliases);
//! 2. [`hoist`]: compute once, statically or per asmo, the runs of per-candidate `;`
//!    chains that do not depend on the candidate, and extend the closure of a known
//!    part by a few candidate pairs rather than closing anew;
//! 3. [`stage`]: order what is left into a per-asmo program and per-candidate slots.
//!
//! [`Prepared::for_asmo`] runs the per-asmo program. Candidates are evaluated on demand
//! (the search's partial checks and the leaves alike), skipping the other operands of an
//! intersection or chain once one is empty, and incrementally: each thread keeps the
//! last candidate's values and recomputes only the nodes whose operands changed
//! ([`memo`]). What each operation computes is [`crate::kernel`]'s, shared with the plain
//! evaluator of [`crate::inspect`].

mod hoist;
mod memo;
mod program;
mod specialise;
mod stage;
#[cfg(test)]
mod tests;

use crate::base::{static_value, Value};
use crate::ir::{Op, N};
use crate::kernel;
use crate::view::events::View;
use crate::Model;
use memo::Memo;
use program::{exec, Input, Loc, Program};
use stage::{Arg, Plan};
use std::borrow::Cow;
use vkherd_model::{EventSet, Rel, Statics};

/// A model specialised to one path combination.
pub struct Prepared<'m> {
    /// Distinguishes this preparation in the per-thread [`Memo`].
    id: u64,
    model: &'m Model,
    /// The per-node tables the passes built.
    p: Program<'m>,
    asmo_program: Vec<N>,
    /// What a complete candidate's evaluation computes (on demand): the checks and the
    /// wanted relations. (The search's partial checks compute one cutting check at a
    /// time, stopping at the first that fails, as `consistent` does.)
    full_roots: Vec<N>,
    cut_checks: Vec<usize>,
    /// The checks that may cut with a partial asmo and lower per-asmo values
    /// ([`crate::shortcuts::Analysis::partial_cut_checks`]).
    partial_cut_checks: &'m [usize],
    /// The named relations asked for at preparation, in the order asked (`None`: a name
    /// the model does not define).
    wanted: Vec<(String, Option<N>)>,
    /// The candidate slots' steps, by slot, and their operands.
    plans: Vec<Plan>,
    args: Vec<(Arg, bool)>,
    /// Dat3M's event view of the execution, for a model compiled in it: the model is
    /// evaluated on the view's events, the search's rf, RFINIT and asmo mapped onto them.
    view: Option<View>,
}

/// The per-asmo values.
pub struct AsmoValues {
    /// Distinguishes these values in the per-thread [`Memo`].
    id: u64,
    vals: Vec<Option<Value>>,
    /// Whether each value is empty (read at every evaluation by the empty-operand cuts).
    empty: Vec<bool>,
    /// Lower bounds for a partial asmo ([`Prepared::lower_asmo`]), not one asmo's values.
    lower: bool,
}

/// A fresh id for a [`Prepared`] or an [`AsmoValues`].
fn fresh_id() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// The values of one candidate.
pub struct Evaluation<'p, 'm> {
    prep: &'p Prepared<'m>,
    asmo: &'p AsmoValues,
    /// This thread's memo, given back when the evaluation is dropped.
    memo: Memo,
    /// In Dat3M's event view, the wanted relations on the program's events, computed
    /// when first asked.
    projected: Vec<std::cell::OnceCell<Option<Rel>>>,
}

impl Drop for Evaluation<'_, '_> {
    fn drop(&mut self) {
        std::mem::take(&mut self.memo).give_back();
    }
}

impl<'m> Prepared<'m> {
    /// The model this is prepared from.
    pub fn model(&self) -> &'m Model {
        self.model
    }

    /// Specialises `model` to the execution `s`. `wanted` names the relations the caller
    /// will read from each [`Evaluation`], by name or by place (an unknown name gives
    /// `None`).
    pub fn new(model: &'m Model, s: &Statics, wanted: &[&str]) -> Prepared<'m> {
        // Only what the checks and the wanted relations read is computed.
        let checks = &model.checks;
        let mut full_roots: Vec<N> = checks.iter().map(|c| c.node).collect();
        let mut wanted_nodes = Vec::new();
        for w in wanted {
            let node = model.named(w);
            wanted_nodes.push((w.to_string(), node));
            full_roots.extend(node);
        }
        let view = model.dat3m_view().then(|| View::new(s));
        let mut p = match &view {
            Some(v) => specialise::specialise(
                &model.graph,
                v.len(),
                &|b| v.static_value(b, s),
                &full_roots,
            ),
            None => {
                specialise::specialise(&model.graph, s.n(), &|b| static_value(b, s), &full_roots)
            }
        };
        hoist::hoist(&mut p);
        let schedule = stage::stage(&mut p, &full_roots);
        Prepared {
            id: fresh_id(),
            model,
            p,
            asmo_program: schedule.asmo_program,
            full_roots,
            cut_checks: (0..checks.len()).filter(|&c| checks[c].may_cut).collect(),
            partial_cut_checks: &model.shortcuts().partial_cut_checks,
            wanted: wanted_nodes,
            plans: schedule.plans,
            args: schedule.args,
            view,
        }
    }

    /// The search's candidate as the model reads it: on the view's events in Dat3M's
    /// view (rf, RFINIT and asmo mapped to its rf, RFINIT and `co`), else as it is.
    fn inputs<'a>(
        &self,
        asmo: &'a Rel,
        rf: &'a Rel,
        rfinit: &'a EventSet,
    ) -> (Cow<'a, Rel>, Cow<'a, Rel>, Cow<'a, EventSet>) {
        match &self.view {
            Some(v) => (
                Cow::Owned(v.co(asmo)),
                Cow::Owned(v.rf(rf, rfinit)),
                Cow::Owned(v.rfinit(rfinit)),
            ),
            None => (
                Cow::Borrowed(asmo),
                Cow::Borrowed(rf),
                Cow::Borrowed(rfinit),
            ),
        }
    }

    /// The view the model is evaluated on, in Dat3M's event view.
    pub fn view(&self) -> Option<&View> {
        self.view.as_ref()
    }

    fn value<'a>(
        &'a self,
        n: N,
        asmo: &'a [Option<Value>],
        cand: &'a [Option<Value>],
    ) -> &'a Value {
        match self.p.loc[n as usize] {
            Loc::Known(k) => self.p.known[k as usize].as_ref().expect("known"),
            Loc::Asmo(slot) => asmo[slot as usize].as_ref().expect("computed per asmo"),
            Loc::Cand(slot) => cand[slot as usize]
                .as_ref()
                .expect("computed per candidate"),
            Loc::InRec => unreachable!("inside a fixpoint"),
        }
    }

    fn compute(
        &self,
        i: N,
        rf: &Rel,
        rfinit: &EventSet,
        asmo_rel: &Rel,
        asmo: &[Option<Value>],
        cand: &[Option<Value>],
    ) -> Value {
        let step = self.p.steps[i as usize].as_ref().expect("a step");
        match step {
            program::Step::Input(Input::Rf) => Value::Rel(rf.clone()),
            program::Step::Input(Input::RfInit) => Value::Set(rfinit.clone()),
            program::Step::Input(Input::Asmo) => Value::Rel(asmo_rel.clone()),
            program::Step::Raw(Op::Fix { group, index, .. }) => {
                kernel::least_fixpoint(&self.model.graph, *group, *index, self.p.n, &|m| {
                    self.value(m, asmo, cand)
                })
            }
            step => exec(step, self.p.kind(i), self.p.n, &|m| {
                self.value(m, asmo, cand)
            }),
        }
    }

    /// Computes the values that depend on asmo alone.
    pub fn for_asmo(&self, asmo: &Rel) -> AsmoValues {
        let co = self.view.as_ref().map(|v| v.co(asmo));
        let asmo = co.as_ref().unwrap_or(asmo);
        let mut vals: Vec<Option<Value>> = vec![None; self.asmo_program.len()];
        let no_rf = Rel::empty(self.p.n);
        let no_init = EventSet::new(self.p.n);
        for &i in &self.asmo_program {
            let v = self.compute(i, &no_rf, &no_init, asmo, &vals, &[]);
            let Loc::Asmo(slot) = self.p.loc[i as usize] else {
                unreachable!("asmo node")
            };
            vals[slot as usize] = Some(v);
        }
        let empty = vals
            .iter()
            .map(|v| v.as_ref().is_some_and(Value::is_empty))
            .collect();
        AsmoValues {
            id: fresh_id(),
            vals,
            empty,
            lower: false,
        }
    }

    /// Per-asmo values within those of every asmo that contains `partial` (transitively
    /// closed) and lies within `pairs`: the lower ends of an interval evaluation of the
    /// per-asmo program, with asmo between `partial` and `pairs` less `partial`'s
    /// inverse (an order containing `partial` relates no pair the other way). Each step
    /// maps its operands' intervals by its monotonicity: union, intersection, chains,
    /// closures and the other monotone operators end to end; complement and the right
    /// side of `\` swap the ends; `total-order(P, C, F)` contains P, so P's lower end
    /// bounds it below (and everything above); a fixpoint is computed exactly when its
    /// inputs are exact, else bounded by nothing and everything. Only the checks of
    /// [`crate::shortcuts::Analysis::partial_cut_checks`], monotone in these values, are
    /// evaluated with them ([`Self::may_complete`]).
    pub fn lower_asmo(&self, partial: &Rel, pairs: &Rel) -> AsmoValues {
        let len = self.asmo_program.len();
        let mut lo: Vec<Option<Value>> = vec![None; len];
        let mut hi: Vec<Option<Value>> = vec![None; len];
        let upper = pairs.minus(&partial.inv());
        // In the view, `co` is a monotone, one-to-one image of asmo with the initial
        // writes' pairs added: the images of the bounds bound it.
        let mapped = self.view.as_ref().map(|v| (v.co(partial), v.co(&upper)));
        let (partial, upper) = match &mapped {
            Some((lo, hi)) => (lo, hi.clone()),
            None => (partial, upper),
        };
        for &i in &self.asmo_program {
            let (l, u) = self.bounds(i, (partial, &upper), &lo, &hi);
            let Loc::Asmo(slot) = self.p.loc[i as usize] else {
                unreachable!("asmo node")
            };
            lo[slot as usize] = Some(l);
            hi[slot as usize] = Some(u);
        }
        let empty = lo
            .iter()
            .map(|v| v.as_ref().is_some_and(Value::is_empty))
            .collect();
        AsmoValues {
            id: fresh_id(),
            vals: lo,
            empty,
            lower: true,
        }
    }

    /// The interval of per-asmo node `i` ([`Self::lower_asmo`]).
    fn bounds(
        &self,
        i: N,
        (asmo_lo, asmo_hi): (&Rel, &Rel),
        lo: &[Option<Value>],
        hi: &[Option<Value>],
    ) -> (Value, Value) {
        let n = self.p.n;
        let kind = self.p.kind(i);
        let get_lo = |m: N| self.value(m, lo, &[]);
        let get_hi = |m: N| self.value(m, hi, &[]);
        let nothing = || (kernel::empty_value(kind, n), kernel::full_value(kind, n));
        let step = self.p.steps[i as usize].as_ref().expect("a step");
        match step {
            program::Step::Input(Input::Asmo) => {
                (Value::Rel(asmo_lo.clone()), Value::Rel(asmo_hi.clone()))
            }
            program::Step::Input(_) => nothing(),
            program::Step::Raw(Op::Fix {
                group,
                index,
                inputs,
            }) => {
                if inputs.iter().all(|&m| get_lo(m) == get_hi(m)) {
                    let v = kernel::least_fixpoint(&self.model.graph, *group, *index, n, &get_lo);
                    (v.clone(), v)
                } else {
                    nothing()
                }
            }
            program::Step::Raw(Op::Compl(a)) => {
                let c = |v: &Value| kernel::apply(&Op::Compl(*a), kind, n, &|_| v);
                (c(get_hi(*a)), c(get_lo(*a)))
            }
            program::Step::Raw(Op::Diff(a, b)) => {
                let d = |x: &Value, y: &Value| match (x, y) {
                    (Value::Rel(x), Value::Rel(y)) => Value::Rel(x.minus(y)),
                    (Value::Set(x), Value::Set(y)) => Value::Set(x.minus(y)),
                    _ => unreachable!("type-checked"),
                };
                (d(get_lo(*a), get_hi(*b)), d(get_hi(*a), get_lo(*b)))
            }
            program::Step::Raw(Op::TotalOrder(p, ..)) => {
                (get_lo(*p).clone(), kernel::full_value(kind, n))
            }
            step => (exec(step, kind, n, &get_lo), exec(step, kind, n, &get_hi)),
        }
    }

    /// Do the checks that may cut the search hold for this (possibly partial) candidate?
    /// If not, no completion of it is consistent (see [`crate::mono`]).
    pub fn may_complete(
        &self,
        asmo: &AsmoValues,
        asmo_rel: &Rel,
        rf: &Rel,
        rfinit: &EventSet,
    ) -> bool {
        let (asmo_rel, rf, rfinit) = self.inputs(asmo_rel, rf, rfinit);
        let (asmo_rel, rf, rfinit) = (&*asmo_rel, &*rf, &*rfinit);
        let mut memo = Memo::take(self.id, asmo.id, self.plans.len());
        let mut ok = true;
        // Lower per-asmo values: only the checks monotone in them.
        let checks = match asmo.lower {
            true => self.partial_cut_checks,
            false => &self.cut_checks[..],
        };
        for &c in checks {
            let node = self.model.checks[c].node;
            self.demand(node, rf, rfinit, asmo_rel, asmo, &mut memo);
            if !self.check(c, &asmo.vals, &memo.vals) {
                ok = false;
                break;
            }
        }
        memo.give_back();
        ok
    }

    /// Computes the candidate node `i` and what it needs, on demand: an intersection
    /// whose operand is empty, or a `;` chain with an empty relation factor, is empty
    /// without computing the other operands (exact: `0 & r = 0`, `0 ; r = r ; 0 = 0`).
    /// So `(rf ; [R \ A]) & twoplus([W] ; locord)` costs no closure while no
    /// non-atomic read has its rf. Operands are tried in order.
    fn demand(
        &self,
        i: N,
        rf: &Rel,
        rfinit: &EventSet,
        asmo_rel: &Rel,
        asmo_values: &AsmoValues,
        memo: &mut Memo,
    ) {
        if let Loc::Cand(slot) = self.p.loc[self.p.resolve(i) as usize] {
            self.demand_slot(slot as usize, rf, rfinit, asmo_rel, asmo_values, memo);
        }
    }

    /// [`Self::demand`] for the node in candidate slot `slot`, through its [`Plan`].
    fn demand_slot(
        &self,
        slot: usize,
        rf: &Rel,
        rfinit: &EventSet,
        asmo_rel: &Rel,
        asmo_values: &AsmoValues,
        memo: &mut Memo,
    ) {
        if memo.meta[slot].seen == memo.now {
            return;
        }
        memo.meta[slot].seen = memo.now;
        let plan = &self.plans[slot];
        if let Some(input) = plan.input {
            // An input equal to the memo's (rfinit mostly is) is not copied again.
            let same = match (input, &memo.vals[slot]) {
                (Input::Rf, Some(Value::Rel(r))) => r == rf,
                (Input::RfInit, Some(Value::Set(s))) => s == rfinit,
                (Input::Asmo, Some(Value::Rel(r))) => r == asmo_rel,
                _ => false,
            };
            if same {
                memo.meta[slot].ctime = memo.now;
                return;
            }
            let v = match input {
                Input::Rf => Value::Rel(rf.clone()),
                Input::RfInit => Value::Set(rfinit.clone()),
                Input::Asmo => Value::Rel(asmo_rel.clone()),
            };
            memo.set(slot, v);
            return;
        }
        let args = &self.args[plan.args.start as usize..plan.args.end as usize];
        // Only candidate slots not yet brought up to date are visited (known and
        // per-asmo operands are read as they are): most operands are one or the other.
        // One pass brings the operands up to date and notes whether one changed since
        // this slot was computed.
        let ctime = memo.meta[slot].ctime;
        let mut stale = false;
        for &(arg, cuts) in args {
            let arg_empty = match arg {
                Arg::Known(e) => e,
                Arg::Asmo(s) => asmo_values.empty[s as usize],
                Arg::Cand(s) => {
                    let s = s as usize;
                    if memo.meta[s].seen != memo.now {
                        self.demand_slot(s, rf, rfinit, asmo_rel, asmo_values, memo);
                    }
                    stale |= memo.meta[s].mtime > ctime;
                    memo.meta[s].empty
                }
            };
            if cuts && arg_empty {
                memo.set_empty(slot, self.p.kind(plan.node), self.p.n);
                return;
            }
        }
        if stale || memo.vals[slot].is_none() {
            let v = self.compute(
                plan.node,
                rf,
                rfinit,
                asmo_rel,
                &asmo_values.vals,
                &memo.vals,
            );
            memo.set(slot, v);
        } else {
            memo.meta[slot].ctime = memo.now;
        }
    }

    /// Whether check `c` holds (for a flag: whether it is raised) on these values.
    fn check(&self, c: usize, asmo: &[Option<Value>], cand: &[Option<Value>]) -> bool {
        let ch = &self.model.checks[c];
        kernel::holds(ch, self.value(ch.node, asmo, cand))
    }

    /// Evaluates every check and the wanted relations of a complete candidate.
    pub fn evaluate<'p>(
        &'p self,
        asmo: &'p AsmoValues,
        asmo_rel: &Rel,
        rf: &Rel,
        rfinit: &EventSet,
    ) -> Evaluation<'p, 'm> {
        let (asmo_rel, rf, rfinit) = self.inputs(asmo_rel, rf, rfinit);
        let (asmo_rel, rf, rfinit) = (&*asmo_rel, &*rf, &*rfinit);
        let mut memo = Memo::take(self.id, asmo.id, self.plans.len());
        for &root in &self.full_roots {
            self.demand(root, rf, rfinit, asmo_rel, asmo, &mut memo);
        }
        Evaluation {
            prep: self,
            asmo,
            memo,
            projected: vec![Default::default(); self.wanted.len()],
        }
    }
}

impl Evaluation<'_, '_> {
    fn get(&self, n: N) -> &Value {
        self.prep.value(n, &self.asmo.vals, &self.memo.vals)
    }

    /// Whether check `c` of the model holds (for a flag: whether it is raised).
    pub fn check(&self, c: usize) -> bool {
        self.prep.check(c, &self.asmo.vals, &self.memo.vals)
    }

    /// Every non-flag check holds.
    pub fn consistent(&self) -> bool {
        let checks = &self.prep.model.checks;
        (0..checks.len()).all(|c| checks[c].flag || self.check(c))
    }

    /// The names of the raised flags.
    pub fn flags(&self) -> Vec<&str> {
        let checks = &self.prep.model.checks;
        (0..checks.len())
            .filter(|&c| checks[c].flag && self.check(c))
            .map(|c| checks[c].name.as_str())
            .collect()
    }

    /// The raised flags: bit `i` for the `i`-th flag check ([`crate::Model::flags`]; a
    /// model has at most 64, `Limit::Flags`).
    pub fn flag_bits(&self) -> u64 {
        let checks = &self.prep.model.checks;
        let flags = (0..checks.len()).filter(|&c| checks[c].flag).enumerate();
        flags.fold(0, |bits, (i, c)| bits | (u64::from(self.check(c)) << i))
    }

    /// Some flag is raised.
    pub fn any_flag(&self) -> bool {
        let checks = &self.prep.model.checks;
        (0..checks.len()).any(|c| checks[c].flag && self.check(c))
    }

    /// A relation asked for when the model was prepared.
    pub fn rel(&self, name: &str) -> Option<&Rel> {
        let i = self.prep.wanted.iter().position(|(w, _)| w == name)?;
        self.wanted_rel(i)
    }

    /// The `i`-th relation asked for when the model was prepared (`None` if the model
    /// does not define it, or it is a set).
    pub fn wanted_rel(&self, i: usize) -> Option<&Rel> {
        let r = match self.get(self.prep.wanted.get(i)?.1?) {
            Value::Rel(r) => r,
            Value::Set(_) => return None,
        };
        match &self.prep.view {
            // On the program's events, as the caller reads them.
            Some(v) => self.projected[i]
                .get_or_init(|| Some(v.project(r)))
                .as_ref(),
            None => Some(r),
        }
    }

    /// A wanted set or relation, as a value.
    pub fn value(&self, name: &str) -> Option<&Value> {
        let (_, n) = self.prep.wanted.iter().find(|(w, _)| w == name)?;
        Some(self.get((*n)?))
    }
}
