//! What a model becomes for one execution: for each node of the IR, where its value
//! lives (known now, computed once per asmo, or per candidate), the step that computes
//! it, and whether it is an alias of another node with the same value. Built by the
//! passes [`super::specialise`], [`super::hoist`] and [`super::stage`], in that order.

use crate::base::{Kind, Stage, Value};
use crate::ir::{Graph, Op, N};
use crate::kernel::{self, Factor};

/// A node's operation after specialisation (operands resolved through aliases).
#[derive(Debug, Clone)]
pub(super) enum Step {
    /// The candidate's rf, RFINIT or asmo.
    Input(Input),
    Raw(Op),
    Union(Option<Value>, Vec<N>),
    Inter(Option<Value>, Vec<N>),
    Seq(Vec<Factor>),
    /// `(K | D1 | D2 ...)+` with `K` static: `K+` (a known node) with the pairs of the
    /// `Di` added one by one ([`vkherd_model::Rel::close_adding`]).
    PlusOver(N, Vec<N>),
}

impl Step {
    /// Calls `f` on every operand, in order.
    pub(super) fn each_operand(&self, mut f: impl FnMut(N)) {
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

/// The values the enumerator gives: they are not computed from other nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Input {
    Rf,
    RfInit,
    Asmo,
}

/// Where a node's value lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Loc {
    /// Computed while preparing (in `known`, at this index).
    Known(N),
    /// Slot of the per-asmo values (`u32::MAX` until [`super::stage`] assigns it).
    Asmo(u32),
    /// Slot of the per-candidate values (`u32::MAX` until [`super::stage`] assigns it).
    Cand(u32),
    /// Inside a fixpoint: computed by the fixpoint's evaluation only.
    InRec,
}

/// The per-node tables. Nodes past the graph's are the ones [`super::hoist`] adds
/// (relations).
pub(super) struct Program<'m> {
    pub(super) graph: &'m Graph,
    /// Events of the execution.
    pub(super) n: usize,
    pub(super) known: Vec<Option<Value>>,
    pub(super) loc: Vec<Loc>,
    /// The node whose value a node has (itself, unless simplified to another).
    pub(super) alias: Vec<N>,
    pub(super) steps: Vec<Option<Step>>,
    /// Each node's stage after specialisation (an alias has its target's).
    pub(super) stage: Vec<Stage>,
}

/// `count` values, with room for the nodes [`super::hoist`] adds (growing the per-node
/// vectors by reallocation cost about 7% of preparing a small test).
pub(super) fn with_room<T>(count: usize, f: impl FnMut() -> T) -> Vec<T> {
    let mut v = Vec::with_capacity(count + count / 2);
    v.resize_with(count, f);
    v
}

impl<'m> Program<'m> {
    /// Tables for `graph` on `n` events where nothing is specialised yet.
    pub(super) fn new(graph: &'m Graph, n: usize) -> Program<'m> {
        let count = graph.nodes.len();
        Program {
            graph,
            n,
            known: with_room(count, || None),
            loc: with_room(count, || Loc::InRec),
            alias: {
                let mut v = Vec::with_capacity(count + count / 2);
                v.extend(0..count as N);
                v
            },
            steps: with_room(count, || None),
            stage: with_room(count, || Stage::Static),
        }
    }

    /// The node whose value `n` has (following aliases).
    #[inline]
    pub(super) fn resolve(&self, n: N) -> N {
        self.alias[n as usize]
    }

    pub(super) fn known_value(&self, n: N) -> Option<&Value> {
        match self.loc[n as usize] {
            Loc::Known(k) => self.known[k as usize].as_ref(),
            _ => None,
        }
    }

    /// The node holding a known node's value.
    pub(super) fn holder(&self, n: N) -> N {
        match self.loc[n as usize] {
            Loc::Known(k) => k,
            _ => n,
        }
    }

    /// The kind of a node's value (new nodes made by [`super::hoist`] are relations).
    pub(super) fn kind(&self, i: N) -> Kind {
        if (i as usize) < self.graph.nodes.len() {
            self.graph.node(i).kind
        } else {
            Kind::Rel
        }
    }
}

/// The node whose value a `;` chain reads for factor `f`: `S` for `[S]` (applied as a
/// restriction, so the `[S]` matrix is never built for a chain), else `f`.
pub(super) fn seq_factor(g: &Graph, f: N) -> N {
    match g.node(f).op {
        Op::Stor(s) => s,
        _ => f,
    }
}

/// Computes one step, reading operands through `get`.
pub(super) fn exec<'a>(step: &Step, kind: Kind, n: usize, get: &impl Fn(N) -> &'a Value) -> Value {
    match step {
        Step::Union(konst, ops) => kernel::fold(konst.as_ref(), ops, true, get),
        Step::Inter(konst, ops) => kernel::fold(konst.as_ref(), ops, false, get),
        Step::Seq(factors) => kernel::compose(factors, n, get),
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
        Step::Raw(op) => kernel::apply(op, kind, n, get),
        Step::Input(_) => unreachable!("read by the evaluator"),
    }
}
