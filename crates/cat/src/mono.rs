//! Which checks may cut the search: how each node changes when rf and RFINIT gain pairs
//! (asmo and the static relations fixed).
//!
//! Along a branch of the search asmo is fixed and rf/RFINIT only grow. A check that fails
//! on a partial candidate fails on every completion if its relation can only grow
//! (`acyclic`, `irreflexive`, `empty`) or only shrink (`~empty`). Every operator is
//! monotone in its operands except complement (antitone) and the right side of `\`
//! (antitone); a least fixpoint of monotone bodies is monotone. So a node's polarity is
//! computed bottom-up, and anything under an odd number of complements of something that
//! grows is antitone, under both kinds is unknown, and neither cuts wrongly.

use crate::base::BaseName;
use crate::ir::{Graph, Op, N};
// foldhash: the hash-consing and analysis maps are keyed by small node ids and ops;
// SipHash was a fifth of compiling vulkan.cat.
use foldhash::{HashMap, HashMapExt};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Polarity {
    /// Does not depend on the growing inputs.
    Const,
    /// Grows (or stays) when they grow.
    Mono,
    /// Shrinks (or stays) when they grow.
    Anti,
    Unknown,
}

impl Polarity {
    fn join(self, o: Polarity) -> Polarity {
        use Polarity::*;
        match (self, o) {
            (Const, x) | (x, Const) => x,
            (x, y) if x == y => x,
            _ => Unknown,
        }
    }

    fn flip(self) -> Polarity {
        match self {
            Polarity::Mono => Polarity::Anti,
            Polarity::Anti => Polarity::Mono,
            x => x,
        }
    }

    /// Only grows (or is constant).
    pub fn monotone(self) -> bool {
        matches!(self, Polarity::Const | Polarity::Mono)
    }

    /// Only shrinks (or is constant).
    pub fn antitone(self) -> bool {
        matches!(self, Polarity::Const | Polarity::Anti)
    }
}

/// The polarity of `n` in the candidate's rf and RFINIT.
pub fn polarity(g: &Graph, n: N) -> Polarity {
    let grows = |op: &Op| matches!(op, Op::Base(BaseName::Rf | BaseName::RfInit));
    walk(g, n, &grows, &mut HashMap::new())
}

/// Is `body` monotone in the recursive variable `var`?
pub fn monotone_in(g: &Graph, body: N, var: N) -> bool {
    let target = g.node(var).op.clone();
    let grows = move |op: &Op| *op == target;
    walk(g, body, &grows, &mut HashMap::new()).monotone()
}

fn walk(g: &Graph, n: N, grows: &dyn Fn(&Op) -> bool, memo: &mut HashMap<N, Polarity>) -> Polarity {
    if let Some(&p) = memo.get(&n) {
        return p;
    }
    let op = &g.node(n).op;
    let p = if grows(op) {
        Polarity::Mono
    } else {
        match op {
            Op::Base(_) | Op::Empty | Op::Full => Polarity::Const,
            // A variable of an enclosing fixpoint grows with the iteration, which is
            // monotone when its bodies are (checked when the group is compiled).
            Op::RecVar { .. } => Polarity::Const,
            Op::Compl(a) => walk(g, *a, grows, memo).flip(),
            Op::Diff(a, b) => walk(g, *a, grows, memo).join(walk(g, *b, grows, memo).flip()),
            // Monotone in P and F while C is fixed (crate::total_order); C's pairs may
            // both add and remove qualifying orders.
            Op::TotalOrder(p, c, f) => match walk(g, *c, grows, memo) {
                Polarity::Const => walk(g, *p, grows, memo).join(walk(g, *f, grows, memo)),
                _ => Polarity::Unknown,
            },
            Op::Fix { group, .. } => {
                let bodies = g.groups[*group as usize].bodies.clone();
                bodies
                    .iter()
                    .fold(Polarity::Const, |acc, &b| acc.join(walk(g, b, grows, memo)))
            }
            other => other
                .operands()
                .iter()
                .fold(Polarity::Const, |acc, &o| acc.join(walk(g, o, grows, memo))),
        }
    };
    memo.insert(n, p);
    p
}

/// May check node `n` cut a search node whose asmo is partial, evaluated with per-asmo
/// values that are only lower bounds of every completion's (`Prepared::lower_asmo`)?
/// Yes when every node of its candidate-stage part (the nodes of stage
/// [`Stage::Candidate`] it reaches without passing a node of an earlier stage) is
/// monotone in each operand that is not static: then its value on the partial candidate
/// (rf, RFINIT and asmo partial, each per-asmo operand at its lower bound, each static
/// operand exact) is within its value on every completion, for `acyclic`, `irreflexive`
/// and `empty` a failure that every completion shares. Complement, the right side of
/// `\` and the `C` of `total-order` must therefore be static there; the bodies of a
/// fixpoint are held to the same rule.
pub fn monotone_over_asmo_values(g: &Graph, n: N) -> bool {
    use crate::base::Stage;
    let mut seen = foldhash::HashSet::default();
    let mut stack = vec![n];
    while let Some(m) = stack.pop() {
        let node = g.node(m);
        if (node.stage != Stage::Candidate && !node.in_rec) || !seen.insert(m) {
            continue;
        }
        let static_op = |x: N| g.node(x).stage == Stage::Static && !g.node(x).in_rec;
        match &node.op {
            Op::Compl(_) => return false,
            Op::Diff(a, b) => {
                if !static_op(*b) {
                    return false;
                }
                stack.push(*a);
            }
            Op::TotalOrder(p, c, f) => {
                if !static_op(*c) {
                    return false;
                }
                stack.extend([*p, *f]);
            }
            Op::Fix { group, inputs, .. } => {
                stack.extend(inputs.iter().copied());
                stack.extend(g.groups[*group as usize].bodies.iter().copied());
            }
            op => stack.extend(op.operands()),
        }
    }
    true
}
