//! The meaning of the cat operators, shared by both evaluators: the staged one
//! ([`crate::eval`], the search's) and the plain one ([`crate::inspect`], `explain`'s).
//! What each operation of the IR computes from its operands' values ([`apply`], and
//! [`compose`] for a `;` chain whose `[S]` factors are applied as restrictions), the
//! least fixpoint of a `let rec` group ([`least_fixpoint`]), and what a check asks of its
//! value ([`holds`]). The evaluators differ only in where operand values come from
//! (`get`) and which nodes they compute.

use crate::ast::CheckKind;
use crate::base::{Kind, Value};
use crate::ir::{Graph, Op, N};
use crate::total_order::total_order;
use crate::Check;
use vkherd_model::{EventSet, Rel};

/// The empty set or relation on `n` events.
pub(crate) fn empty_value(kind: Kind, n: usize) -> Value {
    match kind {
        Kind::Set => Value::Set(EventSet::new(n)),
        Kind::Rel => Value::Rel(Rel::empty(n)),
    }
}

/// Every event, or every pair of events.
pub(crate) fn full_value(kind: Kind, n: usize) -> Value {
    match kind {
        Kind::Set => Value::Set(EventSet::full(n)),
        Kind::Rel => Value::Rel(Rel::full(n)),
    }
}

/// Whether `v` is every event, or every pair.
pub(crate) fn is_full(v: &Value, n: usize) -> bool {
    match v {
        Value::Set(s) => s.count() == n,
        Value::Rel(r) => n > 0 && r.is_full() || n == 0,
    }
}

/// The union (or intersection) of `konst` and the values of `ops`.
pub(crate) fn fold<'a>(
    konst: Option<&Value>,
    ops: &[N],
    union: bool,
    get: &impl Fn(N) -> &'a Value,
) -> Value {
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

/// A `;` factor: a relation, or `[S]` applied as a restriction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Factor {
    Rel(N),
    Restrict(N),
}

/// The `;` chain of `factors` on `n` events (the identity if there are none), the
/// `[S]` factors applied as domain or range restrictions rather than as products with
/// identity matrices. Consecutive `[S]`s were merged when the chain was built.
pub(crate) fn compose<'a>(factors: &[Factor], n: usize, get: &impl Fn(N) -> &'a Value) -> Value {
    // The first relation is borrowed, not copied; restrictions after it apply in
    // place once the chain owns its value.
    let mut owned: Option<Rel> = None;
    let mut first: Option<&Rel> = None;
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

/// The value of operation `op` (of type `kind`, on `n` events), reading its operands
/// through `get`. Base names, recursive variables and fixpoints are not operations on
/// values: the evaluators read the first, and [`least_fixpoint`] computes the others.
pub(crate) fn apply<'a>(op: &Op, kind: Kind, n: usize, get: &impl Fn(N) -> &'a Value) -> Value {
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

/// Variable `index` of the least fixpoint of `let rec` group `group`: Kleene iteration
/// from the empty relations (the bodies are monotone, so it converges in at most n²
/// rounds). `get` gives the values of the nodes outside the group that the bodies read
/// (the fixpoint's inputs).
pub(crate) fn least_fixpoint<'a>(
    graph: &Graph,
    group: u32,
    index: u32,
    n: usize,
    get: &dyn Fn(N) -> &'a Value,
) -> Value {
    let grp = &graph.groups[group as usize];
    let mut vars: Vec<Value> = grp.vars.iter().map(|_| Value::Rel(Rel::empty(n))).collect();
    loop {
        let mut local: Vec<Option<Value>> = vec![None; graph.nodes.len()];
        for (k, &v) in grp.vars.iter().enumerate() {
            local[v as usize] = Some(vars[k].clone());
        }
        let mut next = Vec::new();
        for &b in &grp.bodies {
            next.push(in_group(graph, b, n, &mut local, get));
        }
        if next == vars {
            return vars.swap_remove(index as usize);
        }
        vars = next;
    }
}

/// The value of node `m` in one round of a fixpoint: `local` holds the recursive
/// variables and the nodes computed from them this round.
fn in_group<'a>(
    graph: &Graph,
    m: N,
    n: usize,
    local: &mut Vec<Option<Value>>,
    get: &dyn Fn(N) -> &'a Value,
) -> Value {
    let node = graph.node(m);
    if !node.in_rec {
        return get(m).clone();
    }
    if let Some(v) = &local[m as usize] {
        return v.clone();
    }
    for o in node.op.operands() {
        if graph.node(o).in_rec && local[o as usize].is_none() {
            let v = in_group(graph, o, n, local, get);
            local[o as usize] = Some(v);
        }
    }
    let v = {
        let local: &Vec<Option<Value>> = local;
        apply(&node.op, node.kind, n, &|o| match &local[o as usize] {
            Some(v) => v,
            None => get(o),
        })
    };
    local[m as usize] = Some(v.clone());
    v
}

/// Whether `check` holds on the value of its expression (for a flag: whether it is
/// raised).
pub(crate) fn holds(check: &Check, v: &Value) -> bool {
    let holds = match (check.kind, v) {
        (CheckKind::Acyclic, Value::Rel(r)) => r.is_acyclic_peeling(),
        (CheckKind::Irreflexive, Value::Rel(r)) => r.is_irreflexive(),
        (CheckKind::Empty, v) => v.is_empty(),
        _ => unreachable!("type-checked"),
    };
    holds != check.negated
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::BaseName;
    use crate::{Model, Source};
    use std::collections::BTreeSet;
    use std::sync::Arc;

    const EVENTS: usize = 4;

    /// 0→1→2→3, not transitive.
    fn chain() -> Rel {
        Rel::from_pairs(EVENTS, [(0, 1), (1, 2), (2, 3)])
    }

    fn model(text: &str) -> Model {
        let src = Source {
            name: "test.cat".into(),
            text: Arc::from(text),
        };
        Model::compile(src, &BTreeSet::new()).unwrap_or_else(|e| panic!("{}", e.render()))
    }

    /// Every chain of up to four factors drawn from two relations and two sets, applied
    /// with restrictions, is the plain product of the relations and the `[S]` matrices
    /// (the identity when there is no factor).
    #[test]
    fn compose_is_the_plain_product() {
        let r1 = chain();
        let r2 = Rel::from_pairs(EVENTS, [(3, 0), (1, 1), (2, 0)]);
        let s1 = EventSet::from_iter(EVENTS, [0, 2, 3]);
        let s2 = EventSet::from_iter(EVENTS, [1, 2]);
        let vals = [
            Value::Rel(r1.clone()),
            Value::Rel(r2.clone()),
            Value::Set(s1.clone()),
            Value::Set(s2.clone()),
        ];
        let factor = |k: usize| match k {
            0 | 1 => (Factor::Rel(k as N), [&r1, &r2][k].clone()),
            _ => (Factor::Restrict(k as N), Rel::stor([&s1, &s2][k - 2])),
        };
        let get = |m: N| &vals[m as usize];
        let mut chains: Vec<Vec<usize>> = vec![vec![]];
        let mut checked = 0;
        while let Some(c) = chains.pop() {
            let (factors, matrices): (Vec<Factor>, Vec<Rel>) = c.iter().map(|&k| factor(k)).unzip();
            let want = matrices
                .iter()
                .fold(Rel::identity(EVENTS), |acc, m| acc.seq(m));
            assert_eq!(compose(&factors, EVENTS, &get), Value::Rel(want), "{c:?}");
            checked += 1;
            if c.len() < 4 {
                for k in 0..4 {
                    let mut next = c.clone();
                    next.push(k);
                    chains.push(next);
                }
            }
        }
        assert_eq!(checked, 1 + 4 + 16 + 64 + 256);
    }

    /// `even = id | odd ; r` and `odd = even ; r` on the chain 0→1→2→3: even paths have
    /// length 0 or 2, odd ones 1 or 3 (worked out by hand).
    #[test]
    fn least_fixpoint_of_a_mutual_recursion() {
        let m = model("let rec even = id | odd ; po and odd = even ; po");
        let (even, odd) = (m.named("even").unwrap(), m.named("odd").unwrap());
        let Op::Fix { group, inputs, .. } = &m.graph.node(odd).op else {
            panic!("{:?}", m.graph.node(odd).op);
        };
        let value = |i: N| match m.graph.node(i).op {
            Op::Base(BaseName::Po) => Value::Rel(chain()),
            Op::Base(BaseName::Id) => Value::Rel(Rel::identity(EVENTS)),
            ref op => panic!("unexpected input {op:?}"),
        };
        let vals: Vec<Value> = inputs.iter().map(|&i| value(i)).collect();
        let get = |i: N| &vals[inputs.iter().position(|&x| x == i).expect("an input")];
        let Op::Fix {
            index: odd_index, ..
        } = m.graph.node(odd).op
        else {
            unreachable!()
        };
        let Op::Fix {
            index: even_index, ..
        } = m.graph.node(even).op
        else {
            panic!("{:?}", m.graph.node(even).op);
        };
        let got = |index| least_fixpoint(&m.graph, *group, index, EVENTS, &get);
        let want_odd = Rel::from_pairs(EVENTS, [(0, 1), (1, 2), (2, 3), (0, 3)]);
        let mut want_even = Rel::from_pairs(EVENTS, [(0, 2), (1, 3)]);
        want_even.union_with(&Rel::identity(EVENTS));
        assert_eq!(got(odd_index), Value::Rel(want_odd));
        assert_eq!(got(even_index), Value::Rel(want_even));
    }

    /// Each kind of check, and `~` turning it around.
    #[test]
    fn holds_asks_what_each_check_says() {
        let m = model("acyclic po as a\nirreflexive po as i\nempty po as e\n~empty po as ne");
        let po = Value::Rel(chain());
        let got: Vec<bool> = m.checks.iter().map(|c| holds(c, &po)).collect();
        assert_eq!(got, [true, true, false, true]);
        let cyclic = Value::Rel(Rel::from_pairs(EVENTS, [(0, 1), (1, 0)]));
        assert!(!holds(&m.checks[0], &cyclic));
        assert!(holds(&m.checks[1], &cyclic), "no pair (e, e)");
        let empty = empty_value(Kind::Rel, EVENTS);
        assert!(holds(&m.checks[2], &empty));
        assert!(!holds(&m.checks[3], &empty));
    }
}
