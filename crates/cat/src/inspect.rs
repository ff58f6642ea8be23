//! Every value of a model on one candidate, and why an edge is in a relation: the model
//! side of `vkherd explain`.
//!
//! [`Inspection`] evaluates a compiled model's graph plainly, node by node with a memo (no
//! staging, no specialisation: the staged evaluator in [`crate::eval`] is the fast path,
//! this one is the readable reference, run only on the few candidates an explanation
//! shows; tests check that both agree on every check). It answers:
//! - the value of any node or named definition ([`Inspection::named`]);
//! - the first check of the model that fails ([`Inspection::first_failure`]);
//! - the definitions an edge comes from ([`Inspection::edge_origin`]): descending from a
//!   relation into the operands that contain the edge (unions, intersections' dynamic
//!   operands, differences' left side, `;` chains of one relation between restrictions,
//!   closures whose operand has the edge), and naming the most specific named
//!   definitions reached.

use crate::base::{static_value, BaseName, Kind, Value};
use crate::ir::{Op, N};
use crate::kernel;
use crate::{Model, Stage};
use std::cell::RefCell;
use vkherd_model::{EventSet, Rel, Statics};

/// A model evaluated plainly on one candidate execution.
pub struct Inspection<'m> {
    model: &'m Model,
    n: usize,
    statics: &'m Statics,
    rf: Rel,
    rfinit: EventSet,
    asmo: Rel,
    memo: RefCell<Vec<Option<Value>>>,
    /// The names of each node (a node may have several: `pohb = po`).
    names: Vec<Vec<String>>,
}

/// Where an edge of a relation comes from.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Origin {
    /// The most specific named definitions (or base relations) that contain the edge and
    /// that the relation is built from (several when the edge is in several terms).
    /// Empty when no named part has the edge (`hbloc ; eco`): then `steps` says why.
    pub labels: Vec<String>,
    /// The named definitions passed through on the way down, outermost first (for
    /// `locord`'s edge: `locord`, `hb`, ... ), the first label last. The first label is
    /// the one with the longest such chain.
    pub via: Vec<String>,
    /// The first label's edge as a path of smaller edges, when it is a closure or a `;`
    /// chain ([`Inspection::steps`]).
    pub steps: Vec<Step>,
}

/// One edge of a path that makes up a larger edge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    pub from: usize,
    pub to: usize,
    /// The most specific named definitions containing it (base names if none); `r^-1`
    /// when it is a pair of the inverse of `r`.
    pub labels: Vec<String>,
}

/// A shortest path from `a` to `b` in `r` (BFS), as its events.
pub fn shortest_path(r: &Rel, a: usize, b: usize) -> Option<Vec<usize>> {
    let n = r.n();
    let mut parent: Vec<Option<usize>> = vec![None; n];
    let mut queue = std::collections::VecDeque::from([a]);
    let mut seen = vec![false; n];
    seen[a] = true;
    while let Some(x) = queue.pop_front() {
        for y in r.row(x).iter() {
            if y == b {
                let mut path = vec![b, x];
                let mut at = x;
                while let Some(p) = parent[at] {
                    path.push(p);
                    at = p;
                }
                path.reverse();
                return Some(path);
            }
            if !seen[y] {
                seen[y] = true;
                parent[y] = Some(x);
                queue.push_back(y);
            }
        }
    }
    None
}

impl<'m> Inspection<'m> {
    pub fn new(
        model: &'m Model,
        statics: &'m Statics,
        rf: &Rel,
        rfinit: &EventSet,
        asmo: &Rel,
    ) -> Inspection<'m> {
        let count = model.graph.nodes.len();
        let mut names: Vec<Vec<String>> = vec![Vec::new(); count];
        for (name, node) in &model.named {
            let list = &mut names[*node as usize];
            if !list.contains(name) {
                list.push(name.clone());
            }
        }
        for (i, node) in model.graph.nodes.iter().enumerate() {
            if let Op::Base(b) = node.op {
                let name = b.name().to_string();
                names[i].retain(|x| *x != name);
                names[i].insert(0, name);
            }
        }
        Inspection {
            model,
            n: statics.n(),
            statics,
            rf: rf.clone(),
            rfinit: rfinit.clone(),
            asmo: asmo.clone(),
            memo: RefCell::new(vec![None; count]),
            names,
        }
    }

    pub fn model(&self) -> &'m Model {
        self.model
    }

    /// The value of node `n`.
    pub fn value(&self, n: N) -> Value {
        if let Some(v) = &self.memo.borrow()[n as usize] {
            return v.clone();
        }
        let v = self.compute(n);
        self.memo.borrow_mut()[n as usize] = Some(v.clone());
        v
    }

    /// The value of the last top-level definition called `name`, or of a base name.
    pub fn named(&self, name: &str) -> Option<Value> {
        if let Some(n) = self.model.named(name) {
            return Some(self.value(n));
        }
        let b = crate::base::lookup(name)?;
        let node = self
            .model
            .graph
            .nodes
            .iter()
            .position(|x| x.op == Op::Base(b));
        Some(match node {
            Some(n) => self.value(n as N),
            None => self.base(b),
        })
    }

    fn base(&self, b: BaseName) -> Value {
        match b {
            BaseName::Rf => Value::Rel(self.rf.clone()),
            BaseName::RfInit => Value::Set(self.rfinit.clone()),
            BaseName::Asmo => Value::Rel(self.asmo.clone()),
            _ => static_value(b, self.statics),
        }
    }

    /// Computes node `n` (outside any fixpoint: the kernel computes those) from its
    /// operands' values.
    fn compute(&self, n: N) -> Value {
        let node = self.model.graph.node(n);
        let get = |m: N| self.value(m);
        match &node.op {
            Op::Base(b) => self.base(*b),
            Op::RecVar { .. } => unreachable!("set by its fixpoint"),
            Op::Fix {
                group,
                index,
                inputs,
            } => {
                let vals: Vec<Value> = inputs.iter().map(|&i| get(i)).collect();
                let get = |m: N| &vals[inputs.iter().position(|&i| i == m).expect("an input")];
                kernel::least_fixpoint(&self.model.graph, *group, *index, self.n, &get)
            }
            op => {
                let ops = op.operands();
                let vals: Vec<Value> = ops.iter().map(|&o| get(o)).collect();
                let get = |m: N| &vals[ops.iter().position(|&o| o == m).expect("an operand")];
                kernel::apply(op, node.kind, self.n, &get)
            }
        }
    }

    /// Whether check `c` holds (for a flag: whether it is raised), as the staged
    /// evaluator's `Evaluation::check`.
    pub fn check(&self, c: usize) -> bool {
        let ch = &self.model.checks[c];
        kernel::holds(ch, &self.value(ch.node))
    }

    /// The index of the first check (not a flag) that fails, in the model's order.
    pub fn first_failure(&self) -> Option<usize> {
        (0..self.model.checks.len()).find(|&c| !self.model.checks[c].flag && !self.check(c))
    }

    /// The names of the raised flags.
    pub fn flags(&self) -> Vec<String> {
        let checks = &self.model.checks;
        (0..checks.len())
            .filter(|&c| checks[c].flag && self.check(c))
            .map(|c| checks[c].name.clone())
            .collect()
    }

    /// The names given to node `n` (base name first, then definitions in file order).
    pub fn names_of(&self, n: N) -> &[String] {
        &self.names[n as usize]
    }

    fn has(&self, n: N, a: usize, b: usize) -> bool {
        match self.value(n) {
            Value::Rel(r) => r.contains(a, b),
            Value::Set(_) => false,
        }
    }

    /// Where edge `(a, b)` of relation node `n` comes from (see the module docs). Empty
    /// labels if the edge is not in `n`.
    pub fn edge_origin(&self, n: N, a: usize, b: usize) -> Origin {
        let mut out = Origin::default();
        if !self.has(n, a, b) {
            return out;
        }
        let mut chains: Vec<Vec<N>> = self
            .chains(n, a, b, 0)
            .into_iter()
            .map(|mut chain| {
                // Base relations are not definitions of the model: the caller adds the
                // ones it shows (`po`, `rf`, ...) when the edge is in them.
                while chain.len() > 1 && self.is_base(*chain.last().expect("non-empty")) {
                    chain.pop();
                }
                chain
            })
            .collect();
        // The longest derivation first (`locord > hb` before a plain `rf`): it is the one
        // `via` and `steps` spell out.
        chains.sort_by_key(|c| std::cmp::Reverse(c.len()));
        for chain in chains {
            let last = *chain.last().expect("a chain is not empty");
            let name = self.name(last);
            if out.via.is_empty() {
                out.via = chain.iter().map(|&m| self.name(m)).collect();
                out.steps = self.steps(last, a, b);
            }
            if !out.labels.contains(&name) {
                out.labels.push(name);
            }
        }
        if out.labels.is_empty() {
            // An unnamed expression (`irreflexive hbloc ; eco`): its own path.
            out.steps = self.steps(n, a, b);
        }
        out
    }

    /// The name shown for a named node.
    fn name(&self, n: N) -> String {
        self.names_of(n).first().cloned().unwrap_or_default()
    }

    fn is_base(&self, n: N) -> bool {
        matches!(self.model.graph.node(n).op, Op::Base(_))
    }

    /// The chains of named nodes from `n` (which contains edge `(a, b)`) down to the most
    /// specific ones that contain it, outermost first.
    fn chains(&self, n: N, a: usize, b: usize, depth: usize) -> Vec<Vec<N>> {
        let named = !self.names_of(n).is_empty();
        let mut below: Vec<Vec<N>> = Vec::new();
        if depth < 64 {
            for m in self.parts(n, a, b) {
                below.extend(self.chains(m, a, b, depth + 1));
            }
        }
        match named {
            false => below,
            true if below.is_empty() => vec![vec![n]],
            true => below
                .into_iter()
                .map(|mut c| {
                    c.insert(0, n);
                    c
                })
                .collect(),
        }
    }

    /// Edge `(a, b)` of the named node `n` as a path of smaller edges when `n` is a
    /// closure (`r+`, `r*`: a shortest path of `r`) or a `;` chain (one edge or loop per
    /// factor, loops left out), each step labelled by where it comes from. Empty when
    /// `n` is neither, or the edge is one step.
    pub fn steps(&self, n: N, a: usize, b: usize) -> Vec<Step> {
        self.steps_at(n, a, b, 0)
    }

    fn steps_at(&self, n: N, a: usize, b: usize, depth: usize) -> Vec<Step> {
        let raw = self.path_in(n, a, b, 0);
        if raw.len() < 2 && depth == 0 {
            return Vec::new();
        }
        let mut out = Vec::new();
        for (x, y, m) in raw {
            let mut labels = self.step_labels(m, x, y);
            if labels.is_empty() {
                // `rf^-1 ; asmo`: the inverse's labels, marked `^-1`.
                if let Op::Inv(r) = self.model.graph.node(m).op {
                    labels = self
                        .step_labels(r, y, x)
                        .into_iter()
                        .map(|l| format!("{l}^-1"))
                        .collect();
                }
            }
            // An unnamed part (`[SC & F] ; hb?`): its own steps, if it has some.
            let sub = if labels.is_empty() && depth < 4 {
                self.steps_at(m, x, y, depth + 1)
            } else {
                Vec::new()
            };
            if sub.is_empty() {
                out.push(Step {
                    from: x,
                    to: y,
                    labels,
                });
            } else {
                out.extend(sub);
            }
        }
        out
    }

    /// The most specific named definitions of `m` containing `(x, y)`.
    fn step_labels(&self, m: N, x: usize, y: usize) -> Vec<String> {
        let mut labels: Vec<String> = Vec::new();
        for mut chain in self.chains(m, x, y, 0) {
            while chain.len() > 1 && self.is_base(*chain.last().expect("non-empty")) {
                chain.pop();
            }
            let name = self.name(*chain.last().expect("non-empty"));
            if !labels.contains(&name) {
                labels.push(name);
            }
        }
        labels
    }

    /// Edge `(a, b)` of `n` as a path through the operands of the closure or `;` chain
    /// it comes from: `n` itself, or the first term of a union, dynamic operand of an
    /// intersection, or left side of a difference that has the edge and is one (so
    /// `locord = sloc & (... | [W] ; (hb & avvisinc) ; avdv ; hb ; [W] | ...)` is
    /// broken at the device-domain term). Steps that loop on one event are left out.
    fn path_in(&self, n: N, a: usize, b: usize, depth: usize) -> Vec<(usize, usize, N)> {
        let g = &self.model.graph;
        let raw: Vec<(usize, usize, N)> = match &g.node(n).op {
            Op::Plus(x) | Op::Star(x) => {
                let r = as_rel(self.value(*x));
                shortest_path(&r, a, b)
                    .map(|p| p.windows(2).map(|w| (w[0], w[1], *x)).collect())
                    .unwrap_or_default()
            }
            Op::Seq(v) => self.chain_path(v, a, b).unwrap_or_default(),
            Op::Union(v) | Op::Inter(v) if depth < 8 => {
                let dynamic =
                    |o: &&N| matches!(g.node(n).op, Op::Union(_)) || g.stage(**o) != Stage::Static;
                v.iter()
                    .filter(dynamic)
                    .filter(|&&o| g.kind(o) == Kind::Rel && self.has(o, a, b))
                    .map(|&o| self.path_in(o, a, b, depth + 1))
                    .find(|p| p.len() > 1)
                    .unwrap_or_default()
            }
            Op::Diff(x, _) if depth < 8 => self.path_in(*x, a, b, depth + 1),
            _ => Vec::new(),
        };
        let raw: Vec<(usize, usize, N)> = raw.into_iter().filter(|s| s.0 != s.1).collect();
        match raw[..] {
            // One factor has the whole edge (the others loop): break that factor.
            [(_, _, m)] if depth < 8 && m != n => {
                let inner = self.path_in(m, a, b, depth + 1);
                if inner.len() > 1 {
                    inner
                } else {
                    raw
                }
            }
            _ => raw,
        }
    }

    /// Events `a = e0, e1, ..., ek = b` with `(e(i-1), ei)` in factor i of chain `v`.
    fn chain_path(&self, v: &[N], a: usize, b: usize) -> Option<Vec<(usize, usize, N)>> {
        // parents[i][e]: the event before e when factor i ends at e.
        let mut reach = vec![a];
        let mut parents: Vec<Vec<Option<usize>>> = Vec::new();
        for &f in v {
            let r = as_rel(self.value(f));
            let mut par = vec![None; self.n];
            let mut next = Vec::new();
            for &x in &reach {
                for y in r.row(x).iter() {
                    if par[y].is_none() {
                        par[y] = Some(x);
                        next.push(y);
                    }
                }
            }
            parents.push(par);
            reach = next;
        }
        if !reach.contains(&b) {
            return None;
        }
        let mut out = Vec::new();
        let mut at = b;
        for (i, par) in parents.iter().enumerate().rev() {
            let from = par[at]?;
            out.push((from, at, v[i]));
            at = from;
        }
        out.reverse();
        Some(out)
    }

    /// The operands of `n` that contain edge `(a, b)` on their own (see module docs).
    fn parts(&self, n: N, a: usize, b: usize) -> Vec<N> {
        let g = &self.model.graph;
        let rel = |m: N| g.kind(m) == Kind::Rel;
        match &g.node(n).op {
            Op::Union(v) => {
                // A named union flattened into this one (`hb | rf`): keep the name.
                let mut covered: Vec<N> = Vec::new();
                let mut out = Vec::new();
                for (name_node, sub) in self.named_unions(v) {
                    if sub.iter().all(|o| covered.contains(o)) {
                        continue;
                    }
                    if self.has(name_node, a, b) {
                        covered.extend(sub.iter().copied());
                        out.push(name_node);
                    }
                }
                out.extend(
                    v.iter()
                        .copied()
                        .filter(|o| !covered.contains(o) && rel(*o) && self.has(*o, a, b)),
                );
                out
            }
            Op::Inter(v) => {
                // The dynamic operands say why; static ones (`sloc`, `inscope`) filter.
                let dynamic: Vec<N> = v
                    .iter()
                    .copied()
                    .filter(|&o| rel(o) && g.stage(o) != Stage::Static)
                    .collect();
                if dynamic.is_empty() {
                    v.iter().copied().filter(|&o| rel(o)).collect()
                } else {
                    dynamic
                }
            }
            Op::Diff(x, _) => vec![*x],
            Op::Seq(v) => {
                // A factor that has the edge itself, the others only looping on its ends
                // (restrictions, reflexive closures): `[W] ; hb ; [R]`, `rs ; rf ; [ACQ]`.
                let compose = |fs: &[N]| -> Option<Rel> {
                    fs.iter().fold(None, |acc: Option<Rel>, &f| {
                        let r = as_rel(self.value(f));
                        Some(match acc {
                            None => r,
                            Some(x) => x.seq(&r),
                        })
                    })
                };
                let loops = |fs: &[N], e: usize| compose(fs).is_none_or(|r| r.contains(e, e));
                (0..v.len())
                    .find(|&i| {
                        !matches!(g.node(v[i]).op, Op::Stor(_))
                            && self.has(v[i], a, b)
                            && loops(&v[..i], a)
                            && loops(&v[i + 1..], b)
                    })
                    .map(|i| vec![v[i]])
                    .unwrap_or_default()
            }
            Op::Plus(x) | Op::Star(x) | Op::Opt(x) if self.has(*x, a, b) => vec![*x],
            // An edge of the required order P; the others are the reason pairs.
            Op::TotalOrder(p, _, _) if self.has(*p, a, b) => vec![*p],
            _ => Vec::new(),
        }
    }

    /// Named definitions that are unions of a part of `ops` (with more than one operand),
    /// largest first.
    fn named_unions(&self, ops: &[N]) -> Vec<(N, Vec<N>)> {
        let g = &self.model.graph;
        let mut found: Vec<(N, Vec<N>)> = self
            .model
            .named
            .iter()
            .filter_map(|&(_, m)| match &g.node(m).op {
                Op::Union(sub) if sub.len() > 1 && sub.len() < ops.len() => sub
                    .iter()
                    .all(|o| ops.contains(o))
                    .then(|| (m, sub.clone())),
                _ => None,
            })
            .collect();
        found.sort_by_key(|(m, sub)| (std::cmp::Reverse(sub.len()), *m));
        found.dedup_by_key(|(m, _)| *m);
        found
    }
}

fn as_rel(v: Value) -> Rel {
    match v {
        Value::Rel(r) => r,
        Value::Set(s) => Rel::stor(&s),
    }
}
