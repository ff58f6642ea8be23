//! The compiled form of a model: a DAG of operations on sets and relations, hash-consed
//! (an expression written twice, or reached twice through functions, is one node), with
//! each node's type and [`Stage`].
//!
//! The smart constructors normalise as they build: `|` and `&` are flattened, sorted and
//! deduplicated; `;` chains are flattened and regrouped so that every maximal run of
//! factors that does not depend on rf becomes one node (computed per path combination or
//! per asmo, not per candidate); and a union of chains `P_i ; X ; S_i` around the same
//! rf-dependent factor X is factored into `(|P) ; X ; (|S)` when the pairs (P_i, S_i) form
//! a full product (else grouped by S). This is how `sw`'s four rf terms become
//! `release ; (rf & mutordatom) ; acquire` with no hand factoring.

use crate::base::{BaseName, Kind, Stage};
// foldhash: the hash-consing and analysis maps are keyed by small node ids and ops;
// SipHash was a fifth of compiling vulkan.cat.
use foldhash::HashMap;

pub type N = u32;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Op {
    Base(BaseName),
    /// The empty set or relation (by the node's kind).
    Empty,
    /// Every event, or every pair.
    Full,
    Union(Vec<N>),
    Inter(Vec<N>),
    Diff(N, N),
    /// Complement (within EV or EV × EV).
    Compl(N),
    /// A `;` chain of two or more relations, evaluated left to right. `Stor` factors are
    /// applied as domain/range restrictions.
    Seq(Vec<N>),
    Cross(N, N),
    Inv(N),
    Plus(N),
    Star(N),
    Opt(N),
    Stor(N),
    Domain(N),
    Range(N),
    /// The builtin `total-order(P, C, F)` (crate::total_order).
    TotalOrder(N, N, N),
    /// Variable `index` of recursive group `group` (only inside the group's bodies).
    RecVar {
        group: u32,
        index: u32,
    },
    /// The least fixpoint of variable `index` of `group`; its operands are the nodes
    /// outside the group that the bodies read.
    Fix {
        group: u32,
        index: u32,
        inputs: Vec<N>,
    },
}

#[derive(Debug, Clone)]
pub struct Node {
    pub op: Op,
    pub kind: Kind,
    pub stage: Stage,
    /// Reads a recursive variable (directly or not): evaluated inside its fixpoint only.
    pub in_rec: bool,
    /// Operations from this node down to the base names (a base is 1), through the
    /// bodies of a fixpoint: the recursion depth of every walk over the graph, bounded by
    /// the compiler (`Limit::DefinitionDepth`).
    pub depth: u32,
}

/// A `let rec` group: its variables and their bodies.
#[derive(Debug, Clone)]
pub struct RecGroup {
    pub vars: Vec<N>,
    pub bodies: Vec<N>,
}

/// The hash-consed expression graph: one node per distinct operation (`memo` finds it),
/// so its nodes are added only through its constructors and read through
/// [`Graph::nodes`] and [`Graph::groups`].
#[derive(Debug, Default, Clone)]
pub struct Graph {
    pub(crate) nodes: Vec<Node>,
    pub(crate) groups: Vec<RecGroup>,
    memo: HashMap<(Op, Kind), N>,
}

impl Op {
    /// Calls `f` on every node this operation reads, in [`Op::operands`] order.
    #[inline]
    pub fn each_operand(&self, mut f: impl FnMut(N)) {
        match self {
            Op::Base(_) | Op::Empty | Op::Full | Op::RecVar { .. } => {}
            Op::Union(v) | Op::Inter(v) | Op::Seq(v) => v.iter().for_each(|&x| f(x)),
            Op::Fix { inputs, .. } => inputs.iter().for_each(|&x| f(x)),
            Op::Diff(a, b) | Op::Cross(a, b) => {
                f(*a);
                f(*b)
            }
            Op::TotalOrder(p, c, r) => {
                f(*p);
                f(*c);
                f(*r)
            }
            Op::Compl(a)
            | Op::Inv(a)
            | Op::Plus(a)
            | Op::Star(a)
            | Op::Opt(a)
            | Op::Stor(a)
            | Op::Domain(a)
            | Op::Range(a) => f(*a),
        }
    }

    /// The nodes this operation reads.
    pub fn operands(&self) -> Vec<N> {
        match self {
            Op::Base(_) | Op::Empty | Op::Full | Op::RecVar { .. } => vec![],
            Op::Union(v) | Op::Inter(v) | Op::Seq(v) => v.clone(),
            Op::Fix { inputs, .. } => inputs.clone(),
            Op::Diff(a, b) | Op::Cross(a, b) => vec![*a, *b],
            Op::TotalOrder(p, c, f) => vec![*p, *c, *f],
            Op::Compl(a)
            | Op::Inv(a)
            | Op::Plus(a)
            | Op::Star(a)
            | Op::Opt(a)
            | Op::Stor(a)
            | Op::Domain(a)
            | Op::Range(a) => vec![*a],
        }
    }
}

impl Graph {
    /// Every node, indexed by [`N`].
    #[inline]
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// The `let rec` groups, indexed by `Op::Fix`'s group.
    #[inline]
    pub fn groups(&self) -> &[RecGroup] {
        &self.groups
    }

    /// Marks in `reach` (by node; empty for none marked yet) the nodes `roots` read,
    /// directly or not, themselves included. Nodes already marked are taken as done: their
    /// operands must be marked too.
    pub fn cone(&self, roots: impl IntoIterator<Item = N>, mut reach: Vec<bool>) -> Vec<bool> {
        if reach.is_empty() {
            reach = vec![false; self.nodes.len()];
        }
        let mut stack: Vec<N> = roots.into_iter().collect();
        while let Some(m) = stack.pop() {
            if std::mem::replace(&mut reach[m as usize], true) {
                continue;
            }
            self.nodes[m as usize].op.each_operand(|o| stack.push(o));
        }
        reach
    }

    pub fn node(&self, n: N) -> &Node {
        &self.nodes[n as usize]
    }

    pub fn kind(&self, n: N) -> Kind {
        self.node(n).kind
    }

    pub fn stage(&self, n: N) -> Stage {
        self.node(n).stage
    }

    fn op(&self, n: N) -> &Op {
        &self.node(n).op
    }

    /// Adds `op` (or finds it), with the stage of its operands.
    fn intern(&mut self, op: Op, kind: Kind) -> N {
        let key = (op, kind);
        if let Some(&n) = self.memo.get(&key) {
            return n;
        }
        let op = &key.0;
        let ops = op.operands();
        let (stage, in_rec) = match op {
            Op::Base(b) => (b.stage(), false),
            // A recursive variable may depend on anything: the most conservative stage.
            Op::RecVar { .. } => (Stage::Candidate, true),
            _ => (
                ops.iter()
                    .map(|&o| self.stage(o))
                    .max()
                    .unwrap_or(Stage::Static),
                ops.iter().any(|&o| self.node(o).in_rec),
            ),
        };
        let stage = match op {
            Op::Fix { .. } => Stage::Candidate,
            _ => stage,
        };
        let below = ops.iter().map(|&o| self.node(o).depth).max().unwrap_or(0);
        let below = match op {
            // Walks of a fixpoint descend into its group's bodies.
            Op::Fix { group, .. } => self.groups[*group as usize]
                .bodies
                .iter()
                .map(|&b| self.node(b).depth)
                .fold(below, u32::max),
            _ => below,
        };
        let n = self.nodes.len() as N;
        self.nodes.push(Node {
            op: op.clone(),
            kind,
            stage,
            in_rec,
            depth: below.saturating_add(1),
        });
        self.memo.insert(key, n);
        n
    }

    pub fn base(&mut self, b: BaseName) -> N {
        self.intern(Op::Base(b), b.kind())
    }

    pub fn empty(&mut self, kind: Kind) -> N {
        self.intern(Op::Empty, kind)
    }

    pub fn full(&mut self, kind: Kind) -> N {
        self.intern(Op::Full, kind)
    }

    fn is_empty(&self, n: N) -> bool {
        matches!(self.op(n), Op::Empty)
    }

    fn is_full(&self, n: N) -> bool {
        matches!(self.op(n), Op::Full)
    }

    pub fn rec_var(&mut self, group: u32, index: u32, kind: Kind) -> N {
        self.intern(Op::RecVar { group, index }, kind)
    }

    pub fn fix(&mut self, group: u32, index: u32, inputs: Vec<N>, kind: Kind) -> N {
        self.intern(
            Op::Fix {
                group,
                index,
                inputs,
            },
            kind,
        )
    }

    pub fn union(&mut self, kind: Kind, terms: Vec<N>) -> N {
        let mut flat = Vec::new();
        for t in terms {
            match self.op(t) {
                Op::Union(v) => flat.extend(v.iter().copied()),
                Op::Empty => {}
                Op::Full => return t,
                _ => flat.push(t),
            }
        }
        flat.sort_unstable();
        flat.dedup();
        if kind == Kind::Rel {
            flat = self.factor(flat);
        }
        match flat.len() {
            0 => self.empty(kind),
            1 => flat[0],
            _ => self.intern(Op::Union(flat), kind),
        }
    }

    pub fn inter(&mut self, kind: Kind, terms: Vec<N>) -> N {
        let mut flat = Vec::new();
        for t in terms {
            match self.op(t) {
                Op::Inter(v) => flat.extend(v.iter().copied()),
                Op::Full => {}
                Op::Empty => return t,
                _ => flat.push(t),
            }
        }
        flat.sort_unstable();
        flat.dedup();
        match flat.len() {
            0 => self.full(kind),
            1 => flat[0],
            _ => {
                // Static operands first: they are intersected once, ahead of time.
                flat.sort_by_key(|&n| (self.stage(n), n));
                let split = flat
                    .iter()
                    .position(|&n| self.stage(n) != Stage::Static)
                    .unwrap_or(flat.len());
                if split >= 2 && split < flat.len() {
                    let konst = self.intern(Op::Inter(flat[..split].to_vec()), kind);
                    let mut rest = vec![konst];
                    rest.extend_from_slice(&flat[split..]);
                    rest.sort_unstable();
                    return self.intern(Op::Inter(rest), kind);
                }
                flat.sort_unstable();
                self.intern(Op::Inter(flat), kind)
            }
        }
    }

    pub fn diff(&mut self, a: N, b: N) -> N {
        if self.is_empty(a) || self.is_empty(b) || a == b {
            return if a == b { self.empty(self.kind(a)) } else { a };
        }
        self.intern(Op::Diff(a, b), self.kind(a))
    }

    pub fn compl(&mut self, a: N) -> N {
        let k = self.kind(a);
        match self.op(a) {
            Op::Empty => self.full(k),
            Op::Full => self.empty(k),
            Op::Compl(x) => *x,
            _ => self.intern(Op::Compl(a), k),
        }
    }

    pub fn cross(&mut self, a: N, b: N) -> N {
        if self.is_empty(a) || self.is_empty(b) {
            return self.empty(Kind::Rel);
        }
        if self.is_full(a) && self.is_full(b) {
            return self.full(Kind::Rel);
        }
        self.intern(Op::Cross(a, b), Kind::Rel)
    }

    pub fn stor(&mut self, s: N) -> N {
        if self.is_empty(s) {
            return self.empty(Kind::Rel);
        }
        self.intern(Op::Stor(s), Kind::Rel)
    }

    pub fn unary(&mut self, make: fn(N) -> Op, a: N) -> N {
        let k = match make(0) {
            Op::Domain(_) | Op::Range(_) => Kind::Set,
            _ => Kind::Rel,
        };
        if self.is_empty(a) {
            return match make(0) {
                // 0* = 0? = id
                Op::Star(_) | Op::Opt(_) => {
                    let ev = self.full(Kind::Set);
                    self.stor(ev)
                }
                _ => self.empty(k),
            };
        }
        match (make(0), self.op(a)) {
            (Op::Inv(_), Op::Inv(x)) => *x,
            (Op::Plus(_), Op::Plus(_)) => a,
            _ => self.intern(make(a), k),
        }
    }

    /// `total-order(p, c, f)`, a relation.
    pub fn total_order(&mut self, p: N, c: N, f: N) -> N {
        self.intern(Op::TotalOrder(p, c, f), Kind::Rel)
    }

    /// The identity on `s`'s set, if `n` is `[s]`.
    fn stor_of(&self, n: N) -> Option<N> {
        match self.op(n) {
            Op::Stor(s) => Some(*s),
            _ => None,
        }
    }

    /// `a ; b ; ...`, flattened and regrouped by stage (see the module comment).
    pub fn seq(&mut self, factors: Vec<N>) -> N {
        let mut flat: Vec<N> = Vec::new();
        for f in factors {
            if self.is_empty(f) {
                return f;
            }
            let mut fs = Vec::new();
            self.flatten_seq(f, &mut fs);
            for g in fs {
                // [S1] ; [S2] = [S1 & S2]
                if let (Some(s2), Some(&last)) = (self.stor_of(g), flat.last()) {
                    if let Some(s1) = self.stor_of(last) {
                        let s = self.inter(Kind::Set, vec![s1, s2]);
                        let st = self.stor(s);
                        flat.pop();
                        if self.is_empty(st) {
                            return st;
                        }
                        flat.push(st);
                        continue;
                    }
                }
                flat.push(g);
            }
        }
        // [EV] is the identity.
        let ev = self.full(Kind::Set);
        let id = self.intern(Op::Stor(ev), Kind::Rel);
        if flat.len() > 1 {
            flat.retain(|&f| f != id);
        }
        if flat.is_empty() {
            return id;
        }
        let top = flat
            .iter()
            .map(|&f| self.stage(f))
            .max()
            .expect("non-empty");
        if flat.len() == 1 {
            return flat[0];
        }
        // Group maximal runs of factors below the chain's own stage into one node each.
        let mut grouped = Vec::new();
        let mut run: Vec<N> = Vec::new();
        for f in flat {
            if self.stage(f) < top {
                run.push(f);
            } else {
                if !run.is_empty() {
                    let r = std::mem::take(&mut run);
                    grouped.push(self.seq_run(r));
                }
                grouped.push(f);
            }
        }
        if !run.is_empty() {
            grouped.push(self.seq_run(run));
        }
        // Left-nested steps, so that chains with a common prefix share it (locord's WaW
        // and RaW terms through one domain). A step is one relation with the `[S]`s
        // around it (applied in place by the evaluator, not as nodes of their own).
        let mut units: Vec<Vec<N>> = Vec::new();
        let mut leading: Vec<N> = Vec::new();
        for g in grouped {
            if self.stor_of(g).is_some() {
                match units.last_mut() {
                    Some(u) => u.push(g),
                    None => leading.push(g),
                }
            } else {
                let mut u = std::mem::take(&mut leading);
                u.push(g);
                units.push(u);
            }
        }
        if units.is_empty() {
            return self.intern(Op::Seq(leading), Kind::Rel);
        }
        let mut units = units.into_iter();
        let first = units.next().expect("non-empty");
        let mut acc = if first.len() == 1 {
            first[0]
        } else {
            self.intern(Op::Seq(first), Kind::Rel)
        };
        for u in units {
            let mut v = vec![acc];
            v.extend(u);
            acc = self.intern(Op::Seq(v), Kind::Rel);
        }
        acc
    }

    /// The factors of a `;` chain, nested chains included, in order.
    fn flatten_seq(&self, n: N, out: &mut Vec<N>) {
        match self.op(n) {
            Op::Seq(v) => {
                for &f in v {
                    self.flatten_seq(f, out);
                }
            }
            _ => out.push(n),
        }
    }

    /// The top-level groups of a chain built by [`Graph::seq`]: its left spine (the pairs
    /// of the chain's own stage) unrolled.
    fn chain_groups(&self, n: N) -> Vec<N> {
        match self.op(n) {
            Op::Seq(v)
                if self.stage(v[0]) == self.stage(n) && matches!(self.op(v[0]), Op::Seq(_)) =>
            {
                let mut g = self.chain_groups(v[0]);
                g.extend_from_slice(&v[1..]);
                g
            }
            Op::Seq(v) => v.clone(),
            _ => vec![n],
        }
    }

    fn seq_run(&mut self, run: Vec<N>) -> N {
        if run.len() == 1 {
            run[0]
        } else {
            self.seq(run)
        }
    }

    /// Splits a chain term around its only top-stage factor: (prefix, X, suffix), with
    /// the identity for a missing prefix or suffix.
    fn split_around(&mut self, t: N) -> Option<(N, N, N)> {
        if self.stage(t) != Stage::Candidate {
            return None;
        }
        let ev = self.full(Kind::Set);
        let id = self.intern(Op::Stor(ev), Kind::Rel);
        let factors = self.chain_groups(t);
        let tops: Vec<usize> = (0..factors.len())
            .filter(|&i| self.stage(factors[i]) == Stage::Candidate)
            .collect();
        if tops.len() != 1 {
            return None;
        }
        let k = tops[0];
        let pre = if k == 0 {
            id
        } else {
            self.seq(factors[..k].to_vec())
        };
        let post = if k + 1 == factors.len() {
            id
        } else {
            self.seq(factors[k + 1..].to_vec())
        };
        Some((pre, factors[k], post))
    }

    /// Factors union terms `P ; X ; S` that share their rf-dependent middle X.
    fn factor(&mut self, terms: Vec<N>) -> Vec<N> {
        let mut groups: Vec<(N, Vec<(N, N)>)> = Vec::new();
        let mut out = Vec::new();
        for t in terms {
            match self.split_around(t) {
                Some((p, x, s)) => match groups.iter_mut().find(|(gx, _)| *gx == x) {
                    Some((_, v)) => v.push((p, s)),
                    None => groups.push((x, vec![(p, s)])),
                },
                None => out.push(t),
            }
        }
        for (x, pairs) in groups {
            if pairs.len() == 1 {
                let (p, s) = pairs[0];
                out.push(self.seq(vec![p, x, s]));
                continue;
            }
            let mut ps: Vec<N> = pairs.iter().map(|p| p.0).collect();
            let mut ss: Vec<N> = pairs.iter().map(|p| p.1).collect();
            ps.sort_unstable();
            ps.dedup();
            ss.sort_unstable();
            ss.dedup();
            if ps.len() * ss.len() == pairs.len() {
                // A full product: (|P) ; X ; (|S).
                let p = self.union(Kind::Rel, ps);
                let s = self.union(Kind::Rel, ss);
                out.push(self.seq(vec![p, x, s]));
            } else {
                for s in ss {
                    let pre: Vec<N> = pairs.iter().filter(|q| q.1 == s).map(|q| q.0).collect();
                    let p = self.union(Kind::Rel, pre);
                    out.push(self.seq(vec![p, x, s]));
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}
