//! Staged evaluation of a compiled model over the bit-matrix relations of one execution.
//!
//! [`Prepared::new`] runs once per path combination: on demand from the checks and the
//! wanted relations (skipping what a known-empty operand makes unnecessary), it computes
//! the static nodes they read and specialises the rest against those values (a union with an empty operand loses it, an
//! intersection with an empty one is empty, a `;` chain through an empty factor is empty,
//! known operands of `|`/`&` are folded into one constant; a node whose operands all
//! become known is computed on the spot). So `ithb` for a set of storage classes that no
//! access uses costs nothing per candidate, and `chains & r` is `r` when chains are
//! supported. What is left is ordered into a per-asmo program and a per-candidate program;
//! per-candidate `;` chains have their candidate-independent runs computed once (static)
//! or once per asmo, and closures over a static part plus a few candidate pairs extend the
//! static part's closure. Candidates are evaluated on demand (the search's partial checks
//! and the leaves alike), skipping the other operands of an intersection or chain once one
//! is empty, and incrementally: each thread keeps the last candidate's values and
//! recomputes only the nodes whose operands changed ([`Memo`]).

use crate::ast::CheckKind;
use crate::base::{static_value, Kind, Stage, Value, BASES};
use crate::ir::{Op, N};
use crate::total_order::total_order;
use crate::Model;
// foldhash: the hash-consing and analysis maps are keyed by small node ids and ops;
// SipHash was a fifth of compiling vulkan.cat.
use foldhash::{HashMap, HashMapExt};
use vkherd_model::{EventSet, Rel, Statics};

/// A `;` factor: a relation, or `[S]` applied as a restriction.
#[derive(Debug, Clone)]
enum Factor {
    Rel(N),
    Restrict(N),
}

/// A node's operation after specialisation (operands resolved through aliases).
#[derive(Debug, Clone)]
enum Step {
    /// The candidate's rf, RFINIT or asmo.
    Input(Input),
    Raw(Op),
    Union(Option<Value>, Vec<N>),
    Inter(Option<Value>, Vec<N>),
    Seq(Vec<Factor>),
    /// `(K | D1 | D2 ...)+` with `K` static: `K+` (a known node) with the pairs of the
    /// `Di` added one by one ([`Rel::close_adding`]).
    PlusOver(N, Vec<N>),
}

impl Step {
    /// Calls `f` on every operand, in order.
    fn each_operand(&self, mut f: impl FnMut(N)) {
        match self {
            Step::Union(_, v) | Step::Inter(_, v) => v.iter().for_each(|&o| f(o)),
            Step::Seq(factors) => factors.iter().for_each(|x| match *x {
                Factor::Rel(x) | Factor::Restrict(x) => f(x),
            }),
            Step::Raw(op) => op.each_operand(f),
            Step::PlusOver(k, v) => {
                f(*k);
                v.iter().for_each(|&o| f(o));
            }
            Step::Input(_) => {}
        }
    }
}

/// Where a candidate step's operand is, resolved once per preparation so the traversal
/// of [`Prepared::demand`] reads slots, not nodes.
#[derive(Debug, Clone, Copy)]
enum Arg {
    /// A known value, with whether it is empty.
    Known(bool),
    Asmo(u32),
    Cand(u32),
}

/// One candidate slot's step, as the traversal sees it.
#[derive(Debug, Clone)]
struct Plan {
    /// The node computed in this slot.
    node: N,
    /// The step is an input (rf, RFINIT, asmo), not computed from operands.
    input: Option<Input>,
    /// The operands (a range of [`Prepared::args`]), each with whether an empty value
    /// of it makes the step empty (every operand of `&`, the relation factors of `;`).
    args: std::ops::Range<u32>,
}

#[derive(Debug, Clone, Copy)]
enum Input {
    Rf,
    RfInit,
    Asmo,
}

/// Where a node's value lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Loc {
    /// Computed by `Prepared::new` (in `known`).
    Known(N),
    Asmo(u32),
    Cand(u32),
    /// Inside a fixpoint: computed by the fixpoint's evaluation only.
    InRec,
}

/// A model specialised to one path combination.
pub struct Prepared<'m> {
    /// Distinguishes this preparation in the per-thread [`Memo`].
    id: u64,
    model: &'m Model,
    n: usize,
    known: Vec<Option<Value>>,
    loc: Vec<Loc>,
    /// The node whose value a node has (itself, unless simplified to another).
    alias: Vec<N>,
    steps: Vec<Option<Step>>,
    asmo_program: Vec<N>,
    /// What a complete candidate's evaluation computes (on demand): the checks and the
    /// wanted relations. (The search's partial checks compute one cutting check at a
    /// time, stopping at the first that fails, as `consistent` does.)
    full_roots: Vec<N>,
    cand_slots: usize,
    cut_checks: Vec<usize>,
    /// The named relations asked for at preparation, in the order asked (`None`: a name
    /// the model does not define).
    wanted: Vec<(String, Option<N>)>,
    /// Whether each known value (by holder) is empty.
    known_empty: Vec<bool>,
    /// The candidate slots' steps, by slot, and their operands.
    plans: Vec<Plan>,
    args: Vec<(Arg, bool)>,
}

/// What [`Prepared::new`] keeps while specialising the nodes.
struct PrepareCx<'s> {
    statics: &'s Statics,
    /// The nodes specialised (or being), by node.
    done: Vec<bool>,
    /// Each specialised node's stage after specialisation.
    stage: Vec<Stage>,
    /// Closures of known relations, by the node holding their operand's value: the
    /// ithb of every storage-class subset that no access uses is the same `^ssw`.
    closures: HashMap<(bool, N), N>,
    /// The node holding the empty relation that nodes emptied by a set operand share.
    empty_rel: Option<N>,
}

/// The per-asmo values.
pub struct AsmoValues {
    /// Distinguishes these values in the per-thread [`Memo`].
    id: u64,
    vals: Vec<Option<Value>>,
    /// Whether each value is empty (read at every evaluation by the empty-operand cuts).
    empty: Vec<bool>,
}

/// `count` values, with room for the nodes [`Prepared::hoist_seq_runs`] adds (growing the
/// per-node vectors by reallocation cost about 7% of preparing a small test).
fn with_room<T>(count: usize, f: impl FnMut() -> T) -> Vec<T> {
    let mut v = Vec::with_capacity(count + count / 2);
    v.resize_with(count, f);
    v
}

/// A fresh id for a [`Prepared`] or an [`AsmoValues`].
fn fresh_id() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// The per-candidate values of the last evaluation on this thread, kept for the next one
/// ("make"-style incremental evaluation). The search asks about a partial candidate at
/// every node, and consecutive questions differ in one rf pair, so most candidate nodes
/// (everything downstream of `rf & mutordatom ; [ACQ..]` when the new pair is no
/// synchronisation) keep their values. Exact: a node's value is a function of its
/// operands' values; it is recomputed when some operand changed since it was computed
/// (`mtime` of the operand > `ctime` of the node), and a recomputed value equal to the
/// old one does not count as a change. Known and per-asmo values cannot change under a
/// memo: it is keyed by the [`Prepared`] and the [`AsmoValues`] and reset when either
/// differs.
#[derive(Default)]
struct Memo {
    prep: u64,
    asmo: u64,
    /// The current evaluation's stamp (stamps start at 1; 0 is "never").
    now: u32,
    vals: Vec<Option<Value>>,
    /// Each slot's stamps and emptiness, side by side (the traversal reads them all).
    meta: Vec<SlotMeta>,
}

/// What the traversal of [`Prepared::demand`] reads about a candidate slot.
#[derive(Default, Clone, Copy)]
struct SlotMeta {
    /// When the slot's value last changed.
    mtime: u32,
    /// When the slot's value was last computed or confirmed.
    ctime: u32,
    /// The evaluation in which the slot was last brought up to date.
    seen: u32,
    /// Whether the slot's value is empty.
    empty: bool,
}

thread_local! {
    /// This thread's memo; an [`Evaluation`] holds it while it lives.
    static MEMO: std::cell::RefCell<Memo> = std::cell::RefCell::new(Memo::default());
}

impl Memo {
    /// This thread's memo, ready for one more evaluation under `prep` and `asmo`.
    fn take(prep: &Prepared<'_>, asmo: &AsmoValues) -> Memo {
        let mut m = MEMO.with(|c| std::mem::take(&mut *c.borrow_mut()));
        if m.prep != prep.id || m.asmo != asmo.id || m.now == u32::MAX {
            m.prep = prep.id;
            m.asmo = asmo.id;
            m.now = 0;
            let slots = prep.cand_slots;
            m.vals.clear();
            m.vals.resize_with(slots, || None);
            m.meta.clear();
            m.meta.resize(slots, SlotMeta::default());
        }
        m.now += 1;
        m
    }

    /// Gives the memo back to this thread.
    fn give_back(self) {
        let _ = MEMO.try_with(|c| *c.borrow_mut() = self);
    }

    /// Stores the value of `slot` for this evaluation, noting whether it changed.
    fn set(&mut self, slot: usize, v: Value) {
        if self.vals[slot].as_ref() != Some(&v) {
            self.meta[slot].empty = v.is_empty();
            self.vals[slot] = Some(v);
            self.meta[slot].mtime = self.now;
        }
        self.meta[slot].ctime = self.now;
    }

    /// Stores an empty value (without building one if the slot holds one already).
    fn set_empty(&mut self, slot: usize, kind: Kind, n: usize) {
        if !(self.vals[slot].is_some() && self.meta[slot].empty) {
            self.vals[slot] = Some(empty_value(kind, n));
            self.meta[slot].empty = true;
            self.meta[slot].mtime = self.now;
        }
        self.meta[slot].ctime = self.now;
    }
}

/// The values of one candidate.
pub struct Evaluation<'p, 'm> {
    prep: &'p Prepared<'m>,
    asmo: &'p AsmoValues,
    /// This thread's memo, given back when the evaluation is dropped.
    memo: Memo,
}

impl Drop for Evaluation<'_, '_> {
    fn drop(&mut self) {
        std::mem::take(&mut self.memo).give_back();
    }
}

fn empty_value(kind: Kind, n: usize) -> Value {
    match kind {
        Kind::Set => Value::Set(EventSet::new(n)),
        Kind::Rel => Value::Rel(Rel::empty(n)),
    }
}

fn full_value(kind: Kind, n: usize) -> Value {
    match kind {
        Kind::Set => Value::Set(EventSet::full(n)),
        Kind::Rel => Value::Rel(Rel::full(n)),
    }
}

fn is_full(v: &Value, n: usize) -> bool {
    match v {
        Value::Set(s) => s.count() == n,
        Value::Rel(r) => n > 0 && r.is_full() || n == 0,
    }
}

/// The union (or intersection) of `konst` and the values of `ops`.
fn fold<'a>(konst: Option<&Value>, ops: &[N], union: bool, get: &impl Fn(N) -> &'a Value) -> Value {
    let (mut acc, rest) = match konst {
        Some(k) => (k.clone(), ops),
        None => (get(ops[0]).clone(), &ops[1..]),
    };
    for &o in rest {
        match (&mut acc, get(o)) {
            (Value::Rel(a), Value::Rel(b)) if union => a.union_with(b),
            (Value::Rel(a), Value::Rel(b)) => a.inter_with(b),
            (Value::Set(a), Value::Set(b)) if union => a.union_with(b),
            (Value::Set(a), Value::Set(b)) => a.inter_with(b),
            _ => unreachable!("type-checked"),
        }
    }
    acc
}

/// Computes one step, reading operands through `get`.
fn exec<'a>(step: &Step, kind: Kind, n: usize, get: &impl Fn(N) -> &'a Value) -> Value {
    match step {
        Step::Union(konst, ops) => fold(konst.as_ref(), ops, true, get),
        Step::Inter(konst, ops) => fold(konst.as_ref(), ops, false, get),
        Step::Seq(factors) => {
            // The first relation is borrowed, not copied; restrictions after it apply in
            // place once the chain owns its value.
            let mut owned: Option<Rel> = None;
            let mut first: Option<&Rel> = None;
            // Consecutive `[S]`s were merged when the chain was built.
            let mut dom: Option<&EventSet> = None;
            for f in factors {
                match *f {
                    Factor::Restrict(s) => {
                        let s = get(s).set();
                        if let Some(r) = first.take() {
                            owned = Some(r.restrict_range(s));
                        } else if let Some(r) = &mut owned {
                            r.restrict_range_with(s);
                        } else if let Some(d) = dom {
                            owned = Some(Rel::stor(&d.inter(s)));
                        } else {
                            dom = Some(s);
                        }
                    }
                    Factor::Rel(r) => {
                        let r = get(r).rel();
                        if let Some(a) = first.take() {
                            owned = Some(a.seq(r));
                        } else if let Some(a) = owned.take() {
                            owned = Some(a.seq(r));
                        } else if let Some(d) = dom.take() {
                            owned = Some(r.restrict_domain(d));
                        } else {
                            first = Some(r);
                        }
                    }
                }
            }
            Value::Rel(match (owned, first, dom) {
                (Some(a), _, _) => a,
                (None, Some(r), _) => r.clone(),
                (None, None, Some(d)) => Rel::stor(d),
                (None, None, None) => Rel::identity(n),
            })
        }
        Step::PlusOver(closed, dynamic) => {
            let mut r = get(*closed).rel().clone();
            let added: usize = dynamic.iter().map(|&d| get(d).rel().count()).sum();
            // Many new pairs: Warshall over the union is cheaper than pair by pair.
            if added > n {
                for &d in dynamic {
                    r.union_with(get(d).rel());
                }
                r.close_in_place();
            } else {
                for &d in dynamic {
                    r.close_adding(get(d).rel());
                }
            }
            Value::Rel(r)
        }
        Step::Raw(op) => exec_raw(op, kind, n, get),
        Step::Input(_) => unreachable!("read by the evaluator"),
    }
}

fn exec_raw<'a>(op: &Op, kind: Kind, n: usize, get: &impl Fn(N) -> &'a Value) -> Value {
    match op {
        Op::Empty => empty_value(kind, n),
        Op::Full => full_value(kind, n),
        Op::Union(v) => fold(None, v, true, get),
        Op::Inter(v) => fold(None, v, false, get),
        Op::Seq(v) => {
            let mut acc = get(v[0]).rel().clone();
            for &f in &v[1..] {
                acc = acc.seq(get(f).rel());
            }
            Value::Rel(acc)
        }
        Op::Diff(a, b) => match (get(*a), get(*b)) {
            (Value::Rel(x), Value::Rel(y)) => Value::Rel(x.minus(y)),
            (Value::Set(x), Value::Set(y)) => Value::Set(x.minus(y)),
            _ => unreachable!("type-checked"),
        },
        Op::Compl(a) => match get(*a) {
            Value::Rel(x) => Value::Rel(Rel::full(n).minus(x)),
            Value::Set(x) => Value::Set(x.complement()),
        },
        Op::Cross(a, b) => Value::Rel(Rel::cross(get(*a).set(), get(*b).set())),
        Op::Inv(a) => Value::Rel(get(*a).rel().inv()),
        Op::Plus(a) => Value::Rel(get(*a).rel().plus()),
        Op::Star(a) => Value::Rel(get(*a).rel().star()),
        Op::Opt(a) => Value::Rel(get(*a).rel().opt()),
        Op::Stor(a) => Value::Rel(Rel::stor(get(*a).set())),
        Op::Domain(a) => Value::Set(get(*a).rel().domain()),
        Op::Range(a) => Value::Set(get(*a).rel().range()),
        Op::TotalOrder(p, c, f) => {
            Value::Rel(total_order(get(*p).rel(), get(*c).rel(), get(*f).rel()))
        }
        Op::Base(_) | Op::RecVar { .. } | Op::Fix { .. } => {
            unreachable!("read by the evaluator, not computed")
        }
    }
}

impl<'m> Prepared<'m> {
    /// Specialises `model` to the execution `s`. `wanted` names the relations the caller
    /// will read from each [`Evaluation`] (an unknown name is ignored).
    /// The model this is prepared from.
    pub fn model(&self) -> &'m Model {
        self.model
    }

    pub fn new(model: &'m Model, s: &Statics, wanted: &[&str]) -> Prepared<'m> {
        let g = &model.graph;
        let n = s.n;
        let count = g.nodes.len();
        let mut p = Prepared {
            id: fresh_id(),
            model,
            n,
            known: with_room(count, || None),
            loc: with_room(count, || Loc::InRec),
            alias: {
                let mut v = Vec::with_capacity(count + count / 2);
                v.extend(0..count as N);
                v
            },
            steps: with_room(count, || None),
            asmo_program: Vec::new(),
            full_roots: Vec::new(),
            cand_slots: 0,
            cut_checks: Vec::new(),
            wanted: Vec::new(),
            known_empty: Vec::new(),
            plans: Vec::new(),
            args: Vec::new(),
        };
        // Only what the checks and the wanted relations read is computed.
        let checks = &model.checks;
        let mut full_roots: Vec<N> = checks.iter().map(|c| c.node).collect();
        for w in wanted {
            let node = model.named(w);
            p.wanted.push((w.to_string(), node));
            full_roots.extend(node);
        }
        let mut cx = PrepareCx {
            statics: s,
            done: vec![false; count],
            stage: with_room(count, || Stage::Static),
            closures: HashMap::new(),
            empty_rel: None,
        };
        for &root in &full_roots {
            p.prepare(root, &mut cx);
        }
        let mut stage = cx.stage;
        p.hoist_seq_runs(count, &mut stage);
        // The programs: the nodes each output needs, in index (= topological) order.
        p.cut_checks = (0..checks.len()).filter(|&c| checks[c].may_cut).collect();
        let full = p.needed(&full_roots);
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
                    p.asmo_program.push(i as N);
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
        p.cand_slots = cand_slots as usize;
        p.full_roots = full_roots;
        p.known_empty = p
            .known
            .iter()
            .map(|v| v.as_ref().is_some_and(Value::is_empty))
            .collect();
        p.make_plans();
        p
    }

    /// Specialises node `i` after the operands it reads, on demand from the roots: a
    /// node no root reads through the specialised steps is never computed. Exact: each
    /// specialised node gets the value (or step) that specialising every node in index
    /// order gave; only the nodes left out differ, and nothing reads them. Left out are
    /// the operands of an intersection or `;` chain past one found empty, and the
    /// second operand of a difference or product whose first is empty (a product with an
    /// empty second one is empty too): the node is then empty whatever they are
    /// (`0 & r = 0 ; r = r ; 0 = 0 \ r = 0 * S = 0`). Operands that depend on no
    /// candidate are tried first, since being known they may end the search at once.
    #[inline]
    fn prepare(&mut self, i: N, cx: &mut PrepareCx<'_>) {
        // Most calls find the node done (it is read by several nodes): no call for those.
        if !cx.done[i as usize] {
            self.prepare_new(i, cx);
        }
    }

    /// [`Self::prepare`] for a node not yet specialised.
    fn prepare_new(&mut self, i: N, cx: &mut PrepareCx<'_>) {
        cx.done[i as usize] = true;
        let model = self.model;
        let node = model.graph.node(i);
        debug_assert!(
            !node.in_rec,
            "fixpoint bodies are evaluated by the fixpoint"
        );
        let pair: [N; 2];
        let absorbing: &[N] = match &node.op {
            Op::Inter(v) | Op::Seq(v) => v,
            Op::Cross(a, b) => {
                pair = [*a, *b];
                &pair
            }
            Op::Diff(a, _) => std::slice::from_ref(a),
            _ => &[],
        };
        // A `;` chain reads `S` for a factor `[S]`, not the `[S]` matrix.
        let is_seq = matches!(node.op, Op::Seq(_));
        let read = |o: N| {
            if is_seq {
                seq_factor(&model.graph, o)
            } else {
                o
            }
        };
        for known_pass in [true, false] {
            for &o in absorbing {
                let x = read(o);
                if (model.graph.stage(x) == Stage::Static) != known_pass {
                    continue;
                }
                self.prepare(x, cx);
                if self.known_value(x).is_some_and(Value::is_empty) {
                    // The node is that empty value, unless it is a set (of a product's
                    // operand or a `[S]` factor).
                    self.loc[i as usize] = if matches!(node.op, Op::Cross(..)) || x != o {
                        let known = &mut self.known;
                        let n = self.n;
                        Loc::Known(*cx.empty_rel.get_or_insert_with(|| {
                            known[i as usize] = Some(empty_value(Kind::Rel, n));
                            i
                        }))
                    } else {
                        Loc::Known(self.holder(o))
                    };
                    return;
                }
            }
        }
        node.op.each_operand(|o| self.prepare(read(o), cx));
        self.specialise(i, cx);
    }

    /// Specialises node `i`, whose operands are specialised: computes it if it does not
    /// depend on the candidate or is decided by the known operands, else gives it a step
    /// (or makes it an alias of an operand with the same value).
    fn specialise(&mut self, i: N, cx: &mut PrepareCx<'_>) {
        let model = self.model;
        let node = model.graph.node(i);
        let n = self.n;
        let me = i;
        let i = i as usize;
        let p = self;
        let stage = &mut cx.stage;
        let (step, st) = match &node.op {
            Op::Base(b) if BASES[*b].stage == Stage::Static => {
                p.known[i] = Some(static_value(*b, cx.statics));
                p.loc[i] = Loc::Known(me);
                return;
            }
            Op::Base(b) => {
                let input = match BASES[*b].name {
                    "rf" => Input::Rf,
                    "RFINIT" => Input::RfInit,
                    _ => Input::Asmo,
                };
                (Step::Input(input), BASES[*b].stage)
            }
            op => {
                // The common case: every operand is known, the node is computed now.
                let is_seq = matches!(op, Op::Seq(_));
                let read = |o: N| {
                    if is_seq {
                        seq_factor(&model.graph, o)
                    } else {
                        o
                    }
                };
                let mut all_known = !matches!(op, Op::Fix { .. });
                op.each_operand(|o| all_known &= p.known_value(read(o)).is_some());
                if all_known {
                    p.loc[i] = Loc::Known(p.fold_known(op, node.kind, me, &mut cx.closures));
                    return;
                }
                // (An alias has its target's stage.)
                let mut st = Stage::Static;
                op.each_operand(|o| st = st.max(stage[read(o) as usize]));
                let mut res = op.operands();
                res.iter_mut().for_each(|o| *o = p.resolve(*o));
                let op = remap(op, res);
                let mut all_known = true;
                op.each_operand(|o| all_known &= p.known_value(o).is_some());
                if all_known && !matches!(op, Op::Fix { .. } | Op::Seq(_)) {
                    let v = exec_raw(&op, node.kind, n, &|m| p.known_value(m).expect("known"));
                    p.known[i] = Some(v);
                    p.loc[i] = Loc::Known(me);
                    return;
                }
                match p.simplify(&op, node.kind) {
                    Simplified::Known(v) => {
                        p.known[i] = Some(v);
                        p.loc[i] = Loc::Known(me);
                        return;
                    }
                    Simplified::Alias(a) => {
                        p.alias[i] = p.alias[a as usize];
                        p.loc[i] = p.loc[a as usize];
                        stage[i] = stage[a as usize];
                        return;
                    }
                    Simplified::Step(step) => {
                        let st = if matches!(op, Op::Fix { .. }) {
                            st.max(Stage::Asmo)
                        } else {
                            st
                        };
                        (step, st)
                    }
                }
            }
        };
        stage[i] = st;
        p.steps[i] = Some(step);
        // Slots are given below, once the needed nodes are known.
        p.loc[i] = if st == Stage::Asmo {
            Loc::Asmo(u32::MAX)
        } else {
            Loc::Cand(u32::MAX)
        };
    }

    /// Builds [`Self::plans`] once every slot is assigned.
    fn make_plans(&mut self) {
        let mut plans: Vec<Option<Plan>> = vec![None; self.cand_slots];
        let mut args = Vec::new();
        for i in 0..self.loc.len() {
            let Loc::Cand(slot) = self.loc[i] else {
                continue;
            };
            if self.alias[i] != i as N || slot == u32::MAX {
                continue;
            }
            let step = self.steps[i].as_ref().expect("a step");
            let start = args.len() as u32;
            let arg = |o: N| match self.loc[o as usize] {
                Loc::Known(k) => Arg::Known(self.known_empty[k as usize]),
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
        self.plans = plans
            .into_iter()
            .map(|p| p.expect("a plan per slot"))
            .collect();
        self.args = args;
    }

    /// Splits each per-candidate `;` chain into runs of factors that do not depend on the
    /// candidate, and computes each run once: a static run now (as a new known value), a
    /// per-asmo run once per asmo (as a new per-asmo node). `sw`'s chains are
    /// `[REL & F] ; posemtosc ; [A & W] ; hypors ; (rf & mutordatom) ; ...`: only the
    /// products with `rf & mutordatom` are left per candidate. Exact: `;` is associative.
    /// New nodes get ids from `count` up; their operands are graph nodes, so index order
    /// stays topological, and no graph node reads them but candidate steps.
    fn hoist_seq_runs(&mut self, count: usize, stage: &mut Vec<Stage>) {
        let n = self.n;
        let mut runs: HashMap<Vec<(bool, N)>, N> = HashMap::new();
        for i in 0..count {
            if stage[i] == Stage::Static || self.alias[i] != i as N {
                continue;
            }
            if let Some(Step::Raw(Op::Plus(a))) = &self.steps[i] {
                let a = self.resolve(*a);
                if let Some(Step::Union(Some(Value::Rel(k)), dynamic)) = &self.steps[a as usize] {
                    let dynamic = dynamic.clone();
                    let id = self.loc.len() as N;
                    self.alias.push(id);
                    stage.push(Stage::Static);
                    self.known.push(Some(Value::Rel(k.plus())));
                    self.loc.push(Loc::Known(id));
                    self.steps.push(None);
                    self.steps[i] = Some(Step::PlusOver(id, dynamic));
                }
                continue;
            }
            // A per-asmo chain stays whole: a new per-asmo node would come after it in the
            // per-asmo program.
            let Some(Step::Seq(factors)) = &self.steps[i] else {
                continue;
            };
            if stage[i] != Stage::Candidate {
                continue;
            }
            let factor_stage = |f: &Factor| {
                let (Factor::Rel(x) | Factor::Restrict(x)) = *f;
                let x = self.resolve(x);
                if self.known_value(x).is_some() {
                    Stage::Static
                } else {
                    stage[x as usize]
                }
            };
            let stages: Vec<Stage> = factors.iter().map(factor_stage).collect();
            let mut out: Vec<Factor> = Vec::new();
            let mut changed = false;
            let mut k = 0;
            let factors = factors.clone();
            while k < factors.len() {
                let mut end = k;
                while end < factors.len() && stages[end] != Stage::Candidate {
                    end += 1;
                }
                if end - k < 2 {
                    out.push(factors[k].clone());
                    k += 1;
                    continue;
                }
                let run = &factors[k..end];
                let key: Vec<(bool, N)> = run
                    .iter()
                    .map(|f| match *f {
                        Factor::Rel(x) => (false, x),
                        Factor::Restrict(x) => (true, x),
                    })
                    .collect();
                let id = match runs.get(&key) {
                    Some(&id) => id,
                    None => {
                        let id = self.loc.len() as N;
                        let step = Step::Seq(run.to_vec());
                        let st = stages[k..end].iter().copied().max().expect("a run");
                        self.alias.push(id);
                        stage.push(st);
                        if st == Stage::Static {
                            let v = exec(&step, Kind::Rel, n, &|m| {
                                self.known_value(m).expect("known")
                            });
                            self.known.push(Some(v));
                            self.loc.push(Loc::Known(id));
                            self.steps.push(None);
                        } else {
                            self.known.push(None);
                            self.loc.push(Loc::Asmo(u32::MAX));
                            self.steps.push(Some(step));
                        }
                        runs.insert(key, id);
                        id
                    }
                };
                out.push(Factor::Rel(id));
                changed = true;
                k = end;
            }
            if changed {
                self.steps[i] = Some(Step::Seq(out));
            }
        }
    }

    /// The kind of a node's value (new nodes made by [`Self::hoist_seq_runs`] are
    /// relations).
    fn kind(&self, i: N) -> Kind {
        let g = &self.model.graph;
        if (i as usize) < g.nodes.len() {
            g.node(i).kind
        } else {
            Kind::Rel
        }
    }

    /// The node holding a known node's value.
    fn holder(&self, n: N) -> N {
        match self.loc[n as usize] {
            Loc::Known(k) => k,
            _ => n,
        }
    }

    /// Computes node `me`, whose operands are all known, or finds an equal value already
    /// held: a union or intersection that keeps one operand's value is that operand, and
    /// a closure of a value already closed is that closure. Returns the holder.
    fn fold_known(
        &mut self,
        op: &Op,
        kind: Kind,
        me: N,
        closures: &mut HashMap<(bool, N), N>,
    ) -> N {
        let n = self.n;
        match op {
            Op::Union(v) | Op::Inter(v) => {
                let union = matches!(op, Op::Union(_));
                let mut keep: Option<N> = None;
                let mut several = false;
                for &o in v {
                    let val = self.known_value(o).expect("known");
                    let neutral = if union {
                        val.is_empty()
                    } else {
                        is_full(val, n)
                    };
                    if !neutral {
                        let h = self.holder(o);
                        match keep {
                            Some(k) if k != h => several = true,
                            _ => keep = Some(h),
                        }
                    }
                }
                if !several {
                    if let Some(k) = keep {
                        return k;
                    }
                    // Every operand is neutral: the union of empties is the first one.
                    if union {
                        return self.holder(v[0]);
                    }
                }
            }
            // The closure of an empty relation is itself.
            Op::Plus(a) if self.known_value(*a).is_some_and(Value::is_empty) => {
                return self.holder(*a);
            }
            // Nor is `r*` of an empty relation worth a closure: it is the identity.
            Op::Star(a) if self.known_value(*a).is_some_and(Value::is_empty) => {
                self.known[me as usize] = Some(Value::Rel(Rel::identity(n)));
                return me;
            }
            Op::Plus(a) | Op::Star(a) => {
                let key = (matches!(op, Op::Plus(_)), self.holder(*a));
                if let Some(&k) = closures.get(&key) {
                    return k;
                }
                closures.insert(key, me);
            }
            _ => {}
        }
        let get = |m| self.known_value(m).expect("known");
        let v = match op {
            // `[S]` factors as restrictions, not products with identity matrices.
            Op::Seq(v) => {
                let g = &self.model.graph;
                let factors = v
                    .iter()
                    .map(|&f| match &g.node(f).op {
                        Op::Stor(s) => Factor::Restrict(*s),
                        _ => Factor::Rel(f),
                    })
                    .collect();
                exec(&Step::Seq(factors), kind, n, &get)
            }
            _ => exec_raw(op, kind, n, &get),
        };
        self.known[me as usize] = Some(v);
        me
    }

    /// The node whose value `n` has (following aliases).
    fn resolve(&self, n: N) -> N {
        self.alias[n as usize]
    }

    fn known_value(&self, n: N) -> Option<&Value> {
        match self.loc[n as usize] {
            Loc::Known(k) => self.known[k as usize].as_ref(),
            _ => None,
        }
    }

    /// Splits the operands of a union or intersection into the combination of those
    /// already known (dropping the neutral ones: empty for `|`, full for `&`) and those
    /// still to compute.
    fn split_known(
        &self,
        operands: &[N],
        neutral: impl Fn(&Value) -> bool,
        combine: impl Fn(Value, &Value) -> Value,
    ) -> (Option<Value>, Vec<N>) {
        let mut konst: Option<Value> = None;
        let mut dynamic = Vec::new();
        for &o in operands {
            match self.known_value(o) {
                Some(x) if neutral(x) => {}
                Some(x) => {
                    konst = Some(match konst {
                        None => x.clone(),
                        Some(k) => combine(k, x),
                    })
                }
                None => dynamic.push(o),
            }
        }
        (konst, dynamic)
    }

    fn simplify(&self, op: &Op, kind: Kind) -> Simplified {
        let n = self.n;
        let known_empty = |o: &N| self.known_value(*o).is_some_and(Value::is_empty);
        match op {
            Op::Union(v) => {
                let union = |a: Value, b: &Value| match a {
                    Value::Rel(r) => Value::Rel(r.union(b.rel())),
                    Value::Set(s) => Value::Set(s.union(b.set())),
                };
                match self.split_known(v, Value::is_empty, union) {
                    (None, dynamic) if dynamic.len() == 1 => Simplified::Alias(dynamic[0]),
                    (konst, dynamic) => Simplified::Step(Step::Union(konst, dynamic)),
                }
            }
            Op::Inter(v) => {
                if v.iter().any(known_empty) {
                    return Simplified::Known(empty_value(kind, n));
                }
                let inter = |a: Value, b: &Value| match a {
                    Value::Rel(r) => Value::Rel(r.inter(b.rel())),
                    Value::Set(s) => Value::Set(s.inter(b.set())),
                };
                match self.split_known(v, |x| is_full(x, n), inter) {
                    (None, dynamic) if dynamic.len() == 1 => Simplified::Alias(dynamic[0]),
                    (konst, dynamic) => Simplified::Step(Step::Inter(konst, dynamic)),
                }
            }
            Op::Seq(v) => {
                let g = &self.model.graph;
                if v.iter().any(|&f| known_empty(&seq_factor(g, f))) {
                    return Simplified::Known(empty_value(Kind::Rel, n));
                }
                let factors = v
                    .iter()
                    .map(|&f| match &g.node(f).op {
                        Op::Stor(s) => Factor::Restrict(self.resolve(*s)),
                        _ => Factor::Rel(f),
                    })
                    .collect();
                Simplified::Step(Step::Seq(factors))
            }
            Op::Diff(a, b) => {
                if known_empty(a) {
                    Simplified::Known(empty_value(kind, n))
                } else if known_empty(b) {
                    Simplified::Alias(*a)
                } else {
                    Simplified::Step(Step::Raw(op.clone()))
                }
            }
            Op::Cross(a, b) if known_empty(a) || known_empty(b) => {
                Simplified::Known(empty_value(Kind::Rel, n))
            }
            Op::Inv(a) | Op::Plus(a) | Op::Stor(a) | Op::Domain(a) | Op::Range(a)
                if known_empty(a) =>
            {
                Simplified::Known(empty_value(kind, n))
            }
            _ => Simplified::Step(Step::Raw(op.clone())),
        }
    }

    /// Marks the non-known nodes that `roots` need.
    fn needed(&self, roots: &[N]) -> Vec<bool> {
        let mut need = vec![false; self.loc.len()];
        let mut stack: Vec<N> = roots.to_vec();
        while let Some(n) = stack.pop() {
            let n = self.resolve(n);
            if need[n as usize] {
                continue;
            }
            need[n as usize] = true;
            if let Some(step) = &self.steps[n as usize] {
                step.each_operand(|o| stack.push(o));
            }
        }
        need
    }

    fn value<'a>(
        &'a self,
        n: N,
        asmo: &'a [Option<Value>],
        cand: &'a [Option<Value>],
    ) -> &'a Value {
        match self.loc[n as usize] {
            Loc::Known(k) => self.known[k as usize].as_ref().expect("known"),
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
        let step = self.steps[i as usize].as_ref().expect("a step");
        match step {
            Step::Input(Input::Rf) => Value::Rel(rf.clone()),
            Step::Input(Input::RfInit) => Value::Set(rfinit.clone()),
            Step::Input(Input::Asmo) => Value::Rel(asmo_rel.clone()),
            Step::Raw(Op::Fix { group, index, .. }) => {
                self.fixpoint(*group, *index, &|m| self.value(m, asmo, cand))
            }
            step => exec(step, self.kind(i), self.n, &|m| self.value(m, asmo, cand)),
        }
    }

    /// The least fixpoint of a `let rec` group (Kleene iteration from the empty relations;
    /// the bodies are monotone, so it converges in at most n² rounds).
    fn fixpoint<'a>(&self, group: u32, index: u32, get: &dyn Fn(N) -> &'a Value) -> Value {
        let g = &self.model.graph;
        let grp = &g.groups[group as usize];
        let mut vars: Vec<Value> = grp
            .vars
            .iter()
            .map(|_| Value::Rel(Rel::empty(self.n)))
            .collect();
        loop {
            let mut local: Vec<Option<Value>> = vec![None; g.nodes.len()];
            for (k, &v) in grp.vars.iter().enumerate() {
                local[v as usize] = Some(vars[k].clone());
            }
            let mut next = Vec::new();
            for &b in &grp.bodies {
                next.push(self.eval_rec(b, &mut local, get));
            }
            if next == vars {
                return vars.swap_remove(index as usize);
            }
            vars = next;
        }
    }

    fn eval_rec<'a>(
        &self,
        n: N,
        local: &mut Vec<Option<Value>>,
        get: &dyn Fn(N) -> &'a Value,
    ) -> Value {
        let g = &self.model.graph;
        let node = g.node(n);
        if !node.in_rec {
            return get(n).clone();
        }
        if let Some(v) = &local[n as usize] {
            return v.clone();
        }
        let ops = node.op.operands();
        for &o in &ops {
            if g.node(o).in_rec && local[o as usize].is_none() {
                let v = self.eval_rec(o, local, get);
                local[o as usize] = Some(v);
            }
        }
        let v = {
            let local_ref: &Vec<Option<Value>> = local;
            exec_raw(
                &node.op,
                node.kind,
                self.n,
                &|m| match &local_ref[m as usize] {
                    Some(v) => v,
                    None => get(m),
                },
            )
        };
        local[n as usize] = Some(v.clone());
        v
    }

    /// Computes the values that depend on asmo alone.
    pub fn for_asmo(&self, asmo: &Rel) -> AsmoValues {
        let mut vals: Vec<Option<Value>> = vec![None; self.asmo_program.len()];
        let no_rf = Rel::empty(self.n);
        let no_init = EventSet::new(self.n);
        for &i in &self.asmo_program {
            let v = self.compute(i, &no_rf, &no_init, asmo, &vals, &[]);
            let Loc::Asmo(slot) = self.loc[i as usize] else {
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
        let mut memo = Memo::take(self, asmo);
        let mut ok = true;
        for &c in &self.cut_checks {
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
        if let Loc::Cand(slot) = self.loc[self.resolve(i) as usize] {
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
                memo.set_empty(slot, self.kind(plan.node), self.n);
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
        let holds = match (ch.kind, self.value(ch.node, asmo, cand)) {
            (CheckKind::Acyclic, Value::Rel(r)) => r.is_acyclic_peeling(),
            (CheckKind::Irreflexive, Value::Rel(r)) => r.is_irreflexive(),
            (CheckKind::Empty, v) => v.is_empty(),
            _ => unreachable!("type-checked"),
        };
        holds != ch.negated
    }

    /// Evaluates every check and the wanted relations of a complete candidate.
    pub fn evaluate<'p>(
        &'p self,
        asmo: &'p AsmoValues,
        asmo_rel: &Rel,
        rf: &Rel,
        rfinit: &EventSet,
    ) -> Evaluation<'p, 'm> {
        let mut memo = Memo::take(self, asmo);
        for &root in &self.full_roots {
            self.demand(root, rf, rfinit, asmo_rel, asmo, &mut memo);
        }
        Evaluation {
            prep: self,
            asmo,
            memo,
        }
    }
}

/// The node whose value a `;` chain reads for factor `f`: `S` for `[S]` (applied as a
/// restriction, so the `[S]` matrix is never built for a chain), else `f`.
fn seq_factor(g: &crate::ir::Graph, f: N) -> N {
    match g.node(f).op {
        Op::Stor(s) => s,
        _ => f,
    }
}

enum Simplified {
    Known(Value),
    Alias(N),
    Step(Step),
}

/// `op` with its operands replaced by `res` (same order as [`Op::operands`]).
fn remap(op: &Op, res: Vec<N>) -> Op {
    match op {
        Op::Union(_) => Op::Union(res),
        Op::Inter(_) => Op::Inter(res),
        Op::Seq(_) => Op::Seq(res),
        Op::Fix { group, index, .. } => Op::Fix {
            group: *group,
            index: *index,
            inputs: res,
        },
        Op::Diff(_, _) => Op::Diff(res[0], res[1]),
        Op::Cross(_, _) => Op::Cross(res[0], res[1]),
        Op::Compl(_) => Op::Compl(res[0]),
        Op::Inv(_) => Op::Inv(res[0]),
        Op::Plus(_) => Op::Plus(res[0]),
        Op::Star(_) => Op::Star(res[0]),
        Op::Opt(_) => Op::Opt(res[0]),
        Op::Stor(_) => Op::Stor(res[0]),
        Op::Domain(_) => Op::Domain(res[0]),
        Op::Range(_) => Op::Range(res[0]),
        Op::TotalOrder(..) => Op::TotalOrder(res[0], res[1], res[2]),
        other => other.clone(),
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
        match self.get(self.prep.wanted.get(i)?.1?) {
            Value::Rel(r) => Some(r),
            Value::Set(_) => None,
        }
    }

    /// A wanted set or relation, as a value.
    pub fn value(&self, name: &str) -> Option<&Value> {
        let (_, n) = self.prep.wanted.iter().find(|(w, _)| w == name)?;
        Some(self.get((*n)?))
    }
}
