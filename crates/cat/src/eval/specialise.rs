//! The first pass: specialise the model's IR to one execution (once per path
//! combination), on demand from the roots (the checks and the wanted relations),
//! skipping what a known-empty operand makes unnecessary.
//!
//! It computes the static nodes the roots read and specialises the rest against those
//! values: a union with an empty operand loses it, an intersection with an empty one is
//! empty, a `;` chain through an empty factor is empty, known operands of `|`/`&` are
//! folded into one constant; a node whose operands all become known is computed on the
//! spot. So `ithb` for a set of storage classes that no access uses costs nothing per
//! candidate, and `chains & r` is `r` when chains are supported. A node left to compute
//! gets a [`Step`] and the stage it depends on (per asmo, per candidate); its slot is
//! given later ([`super::stage`]).

use super::program::{seq_factor, Input, Loc, Program, Step};
use crate::base::{BaseName, Kind, Stage, Value};
use crate::ir::{Graph, Op, N};
use crate::kernel::{apply, empty_value, is_full, Factor};
// foldhash: the analysis maps are keyed by small node ids.
use foldhash::{HashMap, HashMapExt};
use vkherd_model::Rel;

/// Specialises the nodes of `graph` that `roots` read to an execution of `n` events
/// whose static base values `statics` gives.
pub(super) fn specialise<'m>(
    graph: &'m Graph,
    n: usize,
    statics: &dyn Fn(BaseName) -> Value,
    roots: &[N],
) -> Program<'m> {
    let count = graph.nodes.len();
    let mut s = Specialiser {
        p: Program::new(graph, n),
        statics,
        done: vec![false; count],
        closures: HashMap::new(),
        empty_rel: None,
    };
    for &root in roots {
        s.prepare(root);
    }
    s.p
}

/// What the pass keeps while specialising the nodes.
struct Specialiser<'m, 's> {
    p: Program<'m>,
    statics: &'s dyn Fn(BaseName) -> Value,
    /// The nodes specialised (or being), by node.
    done: Vec<bool>,
    /// Closures of known relations, by the node holding their operand's value: the
    /// ithb of every storage-class subset that no access uses is the same `^ssw`.
    closures: HashMap<(bool, N), N>,
    /// The node holding the empty relation that nodes emptied by a set operand share.
    empty_rel: Option<N>,
}

enum Simplified {
    Known(Value),
    Alias(N),
    Step(Step),
}

impl Specialiser<'_, '_> {
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
    fn prepare(&mut self, i: N) {
        // Most calls find the node done (it is read by several nodes): no call for those.
        if !self.done[i as usize] {
            self.prepare_new(i);
        }
    }

    /// [`Self::prepare`] for a node not yet specialised.
    fn prepare_new(&mut self, i: N) {
        self.done[i as usize] = true;
        let graph = self.p.graph;
        let node = graph.node(i);
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
                seq_factor(graph, o)
            } else {
                o
            }
        };
        for known_pass in [true, false] {
            for &o in absorbing {
                let x = read(o);
                if (graph.stage(x) == Stage::Static) != known_pass {
                    continue;
                }
                self.prepare(x);
                if self.p.known_value(x).is_some_and(Value::is_empty) {
                    // The node is that empty value, unless it is a set (of a product's
                    // operand or a `[S]` factor).
                    self.p.loc[i as usize] = if matches!(node.op, Op::Cross(..)) || x != o {
                        let known = &mut self.p.known;
                        let n = self.p.n;
                        Loc::Known(*self.empty_rel.get_or_insert_with(|| {
                            known[i as usize] = Some(empty_value(Kind::Rel, n));
                            i
                        }))
                    } else {
                        Loc::Known(self.p.holder(o))
                    };
                    return;
                }
            }
        }
        node.op.each_operand(|o| self.prepare(read(o)));
        self.specialise(i);
    }

    /// Specialises node `i`, whose operands are specialised: computes it if it does not
    /// depend on the candidate or is decided by the known operands, else gives it a step
    /// (or makes it an alias of an operand with the same value).
    fn specialise(&mut self, i: N) {
        let graph = self.p.graph;
        let node = graph.node(i);
        let n = self.p.n;
        let me = i;
        let i = i as usize;
        let (step, st) = match &node.op {
            Op::Base(b) if b.stage() == Stage::Static => {
                self.p.known[i] = Some((self.statics)(*b));
                self.p.loc[i] = Loc::Known(me);
                return;
            }
            Op::Base(b) => {
                let input = match b {
                    BaseName::Rf => Input::Rf,
                    BaseName::RfInit => Input::RfInit,
                    _ => Input::Asmo,
                };
                (Step::Input(input), b.stage())
            }
            op => {
                // The common case: every operand is known, the node is computed now.
                let is_seq = matches!(op, Op::Seq(_));
                let read = |o: N| {
                    if is_seq {
                        seq_factor(graph, o)
                    } else {
                        o
                    }
                };
                let p = &mut self.p;
                let mut all_known = !matches!(op, Op::Fix { .. });
                op.each_operand(|o| all_known &= p.known_value(read(o)).is_some());
                if all_known {
                    let holder = fold_known(p, op, node.kind, me, &mut self.closures);
                    p.loc[i] = Loc::Known(holder);
                    return;
                }
                // (An alias has its target's stage.)
                let mut st = Stage::Static;
                op.each_operand(|o| st = st.max(p.stage[read(o) as usize]));
                let mut res = op.operands();
                res.iter_mut().for_each(|o| *o = p.resolve(*o));
                let op = remap(op, res);
                let mut all_known = true;
                op.each_operand(|o| all_known &= p.known_value(o).is_some());
                if all_known && !matches!(op, Op::Fix { .. } | Op::Seq(_)) {
                    let v = apply(&op, node.kind, n, &|m| p.known_value(m).expect("known"));
                    p.known[i] = Some(v);
                    p.loc[i] = Loc::Known(me);
                    return;
                }
                match simplify(p, &op, node.kind) {
                    Simplified::Known(v) => {
                        p.known[i] = Some(v);
                        p.loc[i] = Loc::Known(me);
                        return;
                    }
                    Simplified::Alias(a) => {
                        p.alias[i] = p.alias[a as usize];
                        p.loc[i] = p.loc[a as usize];
                        p.stage[i] = p.stage[a as usize];
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
        let p = &mut self.p;
        p.stage[i] = st;
        p.steps[i] = Some(step);
        // Slots are given by the stage pass, once the needed nodes are known.
        p.loc[i] = if st == Stage::Asmo {
            Loc::Asmo(u32::MAX)
        } else {
            Loc::Cand(u32::MAX)
        };
    }
}

/// Computes node `me`, whose operands are all known, or finds an equal value already
/// held: a union or intersection that keeps one operand's value is that operand, and
/// a closure of a value already closed is that closure. Returns the holder.
fn fold_known(
    p: &mut Program<'_>,
    op: &Op,
    kind: Kind,
    me: N,
    closures: &mut HashMap<(bool, N), N>,
) -> N {
    let n = p.n;
    match op {
        Op::Union(v) | Op::Inter(v) => {
            let union = matches!(op, Op::Union(_));
            let mut keep: Option<N> = None;
            let mut several = false;
            for &o in v {
                let val = p.known_value(o).expect("known");
                let neutral = if union {
                    val.is_empty()
                } else {
                    is_full(val, n)
                };
                if !neutral {
                    let h = p.holder(o);
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
                    return p.holder(v[0]);
                }
            }
        }
        // The closure of an empty relation is itself.
        Op::Plus(a) if p.known_value(*a).is_some_and(Value::is_empty) => {
            return p.holder(*a);
        }
        // Nor is `r*` of an empty relation worth a closure: it is the identity.
        Op::Star(a) if p.known_value(*a).is_some_and(Value::is_empty) => {
            p.known[me as usize] = Some(Value::Rel(Rel::identity(n)));
            return me;
        }
        Op::Plus(a) | Op::Star(a) => {
            let key = (matches!(op, Op::Plus(_)), p.holder(*a));
            if let Some(&k) = closures.get(&key) {
                return k;
            }
            closures.insert(key, me);
        }
        _ => {}
    }
    let get = |m| p.known_value(m).expect("known");
    let v = match op {
        // `[S]` factors as restrictions, not products with identity matrices.
        Op::Seq(v) => {
            let factors: Vec<Factor> = v
                .iter()
                .map(|&f| match &p.graph.node(f).op {
                    Op::Stor(s) => Factor::Restrict(*s),
                    _ => Factor::Rel(f),
                })
                .collect();
            crate::kernel::compose(&factors, n, &get)
        }
        _ => apply(op, kind, n, &get),
    };
    p.known[me as usize] = Some(v);
    me
}

/// Splits the operands of a union or intersection into the combination of those
/// already known (dropping the neutral ones: empty for `|`, full for `&`) and those
/// still to compute.
fn split_known(
    p: &Program<'_>,
    operands: &[N],
    neutral: impl Fn(&Value) -> bool,
    combine: impl Fn(Value, &Value) -> Value,
) -> (Option<Value>, Vec<N>) {
    let mut konst: Option<Value> = None;
    let mut dynamic = Vec::new();
    for &o in operands {
        match p.known_value(o) {
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

/// The step of `op`, whose operands are resolved and not all known, or its value or
/// the operand it equals when the known operands decide it.
fn simplify(p: &Program<'_>, op: &Op, kind: Kind) -> Simplified {
    let n = p.n;
    let known_empty = |o: &N| p.known_value(*o).is_some_and(Value::is_empty);
    match op {
        Op::Union(v) => {
            let union = |a: Value, b: &Value| match a {
                Value::Rel(r) => Value::Rel(r.union(b.rel())),
                Value::Set(s) => Value::Set(s.union(b.set())),
            };
            match split_known(p, v, Value::is_empty, union) {
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
            match split_known(p, v, |x| is_full(x, n), inter) {
                (None, dynamic) if dynamic.len() == 1 => Simplified::Alias(dynamic[0]),
                (konst, dynamic) => Simplified::Step(Step::Inter(konst, dynamic)),
            }
        }
        Op::Seq(v) => {
            let g = p.graph;
            if v.iter().any(|&f| known_empty(&seq_factor(g, f))) {
                return Simplified::Known(empty_value(Kind::Rel, n));
            }
            let factors = v
                .iter()
                .map(|&f| match &g.node(f).op {
                    Op::Stor(s) => Factor::Restrict(p.resolve(*s)),
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
        Op::Inv(a) | Op::Plus(a) | Op::Stor(a) | Op::Domain(a) | Op::Range(a) if known_empty(a) => {
            Simplified::Known(empty_value(kind, n))
        }
        _ => Simplified::Step(Step::Raw(op.clone())),
    }
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
