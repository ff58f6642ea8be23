//! From a cycle to a test (docs/generate.md "From a cycle to a test").
//!
//! The structure comes from the edges alone ([`Shape::new`]): the invocations (a new one
//! after each external edge), the locations (a new one after each `..d..` edge), the
//! order of the writes to each location, the values, and the condition. The annotations
//! ([`super::dress::Choice`]) then dress it ([`Shape::test`], `dress.rs`); a family is one
//! shape dressed many ways.
//!
//! The condition is diy7's: the cycle stands for the execution in which
//! - each `Rf` edge's read reads its write;
//! - each location's writes are in coherence order as the cycle meets them, starting
//!   after the edge where the cycle arrives at the location (for a cycle that never
//!   leaves its location, at the rotation every `Co` and `Rf`;`Fr` pair agrees with);
//! - a read whose cycle edge out is `Fr` and in is not `Rf` reads the write just before
//!   the `Fr` target in that order (the initial value if the target is first);
//!
//! and every write writes a value distinct on its location (1, 2, ... in coherence
//! order), so the condition says exactly that: each such read's value, and for a
//! location written twice, its final value (the last write). A read the cycle says
//! nothing about (neither `Rf` in nor `Fr` out) is not in the condition.

use super::ann::{FenceKind, Kind};
use super::cycle::{Cycle, Dir, DpKind, EdgeKind};
use super::error::{ErrorKind, GenError};
use super::names;
use super::test::{loc_name, Obs};

/// One operation of the shape, before annotations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Node {
    /// The access of cycle event `event` (for an RMW, its read half).
    Access {
        event: usize,
        reg: Option<u32>,
        value: i64,
        /// A dependency on the read of this event.
        dep: Option<(DpKind, usize)>,
    },
    /// The fence of a `Fenced..` edge, or one side of a `Cbar..` edge's barrier.
    Fence { edge: usize, instance: Option<u32> },
}

/// The structure of the test a cycle stands for.
#[derive(Debug, Clone)]
pub struct Shape {
    pub cycle: Cycle,
    /// Per invocation, its operations in program order.
    pub threads: Vec<Vec<Node>>,
    pub locations: usize,
    /// The location of each event.
    pub event_loc: Vec<usize>,
    /// The access kind of each event (both halves of an RMW: `Rmw`).
    pub event_kind: Vec<Kind>,
    /// The external edges in ring order: `ring[t]` leads from invocation t to the next.
    pub ring: Vec<usize>,
    pub exists: Vec<(Obs, i64)>,
    /// The classic name, or the edges joined by `+`.
    pub family: String,
}

/// The index before `i` round a cycle of `n`.
pub(super) fn prev(i: usize, n: usize) -> usize {
    (i + n - 1) % n
}

impl Shape {
    /// The structure of `cycle`, or why the cycle has none.
    pub fn new(cycle: Cycle) -> Result<Shape, GenError> {
        let n = cycle.edges.len();
        let e = &cycle.edges;
        for i in 0..n {
            let next = (i + 1) % n;
            if e[i].tgt != e[next].src {
                let (at, msg) = if next == 0 {
                    (
                        &e[i].token,
                        format!(
                            "the cycle does not close: its last edge `{}` ends at {} but its first edge `{}` starts at {}",
                            e[i].token.text, dir_word(e[i].tgt), e[0].token.text, dir_word(e[0].src)
                        ),
                    )
                } else {
                    (
                        &e[next].token,
                        format!(
                            "`{}` ends at {} but the next edge `{}` starts at {}: consecutive edges share their event",
                            e[i].token.text, dir_word(e[i].tgt), e[next].token.text, dir_word(e[next].src)
                        ),
                    )
                };
                return Err(GenError::at(ErrorKind::NotClosed, at, msg));
            }
        }
        let externals: Vec<usize> = (0..n).filter(|&i| e[i].external).collect();
        match externals.as_slice() {
            [] => {
                return Err(GenError::at(
                    ErrorKind::Threads,
                    &e[0].token,
                    "the cycle has no external edge (Rfe, Fre, Coe, Cbar..): its events would all be in one invocation, where program order cannot go round a cycle",
                ))
            }
            [only] => {
                return Err(GenError::at(
                    ErrorKind::Threads,
                    &e[*only].token,
                    "the only external edge of the cycle: it would lead from an invocation back to itself; a cycle needs at least two external edges",
                ))
            }
            _ => {}
        }
        let changes: Vec<usize> = (0..n).filter(|&i| !e[i].same_loc).collect();
        if let [only] = changes.as_slice() {
            return Err(GenError::at(
                ErrorKind::Locations,
                &e[*only].token,
                "the only change of location in the cycle: the locations cannot come back to the first one; change location at least twice, or not at all",
            ));
        }
        // Walk from the first event that starts an invocation.
        let start = (0..n)
            .find(|&i| e[prev(i, n)].external)
            .expect("an external edge");
        let walk: Vec<usize> = (0..n).map(|j| (start + j) % n).collect();
        let event_kind: Vec<Kind> = (0..n)
            .map(|i| {
                if e[i].kind == EdgeKind::Rmw || e[prev(i, n)].kind == EdgeKind::Rmw {
                    Kind::Rmw
                } else if e[i].src == Dir::R {
                    Kind::R
                } else {
                    Kind::W
                }
            })
            .collect();
        // The first event of each access: an RMW's write half is its read half.
        let first_half: Vec<usize> = (0..n)
            .map(|i| {
                if e[prev(i, n)].kind == EdgeKind::Rmw {
                    prev(i, n)
                } else {
                    i
                }
            })
            .collect();
        let op_of = |i: usize| first_half[i];
        let (threads, thread_of) = invocations(&cycle, &walk, &op_of);
        let (event_loc, locations) = locations_of(&cycle, &threads, start);
        let ring = externals_in_ring_order(&cycle, &walk);
        let mut shape = Shape {
            family: String::new(),
            threads,
            locations,
            event_loc,
            event_kind,
            ring,
            exists: Vec::new(),
            cycle,
        };
        shape.assign_registers();
        let order = shape.coherence(&walk, &op_of)?;
        shape.condition(&order, &op_of, &thread_of)?;
        shape.family = shape.family_name(&walk);
        Ok(shape)
    }

    /// Registers r0, r1, ... per invocation, for its reads in program order.
    fn assign_registers(&mut self) {
        let kinds = self.event_kind.clone();
        for ops in &mut self.threads {
            let mut next = 0;
            for node in ops.iter_mut() {
                if let Node::Access { event, reg, .. } = node {
                    if kinds[*event].reads() {
                        *reg = Some(next);
                        next += 1;
                    }
                }
            }
        }
    }

    /// The register of an event's read.
    pub(super) fn reg_of(&self, event: usize) -> Option<u32> {
        self.threads.iter().flatten().find_map(|n| match *n {
            Node::Access { event: ev, reg, .. } if ev == event => reg,
            _ => None,
        })
    }

    /// The coherence order of each location's writes (as access events), and their values.
    fn coherence(
        &mut self,
        walk: &[usize],
        op_of: &dyn Fn(usize) -> usize,
    ) -> Result<Vec<Vec<usize>>, GenError> {
        let e = &self.cycle.edges;
        let n = e.len();
        // Pairs the cycle asks to be in coherence order, with the edge asking.
        let mut asked: Vec<(usize, usize, usize)> = Vec::new();
        for i in 0..n {
            let into = prev(i, n);
            match (e[into].kind, self.event_kind[i]) {
                (EdgeKind::Co, _) => asked.push((op_of(into), op_of(i), into)),
                // A read half of an RMW reads the write just before it.
                (EdgeKind::Rf, Kind::Rmw) => asked.push((op_of(into), op_of(i), into)),
                // A read that reads w and is fr-before w2: w before w2.
                (EdgeKind::Rf, Kind::R) if e[i].kind == EdgeKind::Fr => {
                    asked.push((op_of(into), op_of((i + 1) % n), i))
                }
                _ => {}
            }
        }
        // The writes of each location in the order the walk meets them, from the edge
        // where the walk arrives at it.
        let arrive = (0..n).find(|&i| !e[prev(i, n)].same_loc).unwrap_or(walk[0]);
        let mut order: Vec<Vec<usize>> = vec![Vec::new(); self.locations];
        for j in 0..n {
            let i = (arrive + j) % n;
            if self.event_kind[i].writes() {
                let op = op_of(i);
                let list = &mut order[self.event_loc[i]];
                if !list.contains(&op) {
                    list.push(op);
                }
            }
        }
        let circular = !e.iter().any(|x| !x.same_loc);
        for (loc, writes) in order.iter_mut().enumerate() {
            let pairs: Vec<&(usize, usize, usize)> = asked
                .iter()
                .filter(|(a, _, _)| self.event_loc[*a] == loc)
                .collect();
            let agrees = |w: &[usize]| {
                pairs.iter().all(|(a, b, _)| {
                    let pos = |x| w.iter().position(|y| y == x);
                    matches!((pos(a), pos(b)), (Some(i), Some(j)) if i < j)
                })
            };
            let rotations = if circular { writes.len().max(1) } else { 1 };
            let found = (0..rotations).find(|&r| {
                let mut w = writes.clone();
                w.rotate_left(r);
                agrees(&w)
            });
            match found {
                Some(r) => writes.rotate_left(r),
                None => {
                    let (_, _, edge) = pairs
                        .iter()
                        .find(|(a, b, _)| a == b)
                        .or_else(|| pairs.first())
                        .expect("a disagreement has a pair");
                    return Err(GenError::at(
                        ErrorKind::Coherence,
                        &e[*edge].token,
                        format!(
                            "the coherence order this cycle asks for on location {} is cyclic (a write would come before itself): no execution has these edges",
                            loc_name(loc)
                        ),
                    ));
                }
            }
            if writes.len() > 2 {
                let third = writes[2];
                return Err(GenError::at(
                    ErrorKind::Unobservable,
                    &e[prev(third, n)].token,
                    format!(
                        "location {} is written {} times: the final state shows only the last write, so the coherence order of the others cannot be asked about; keep at most two writes per location (diy7's observer invocations are not implemented)",
                        loc_name(loc),
                        writes.len()
                    ),
                ));
            }
        }
        // Values 1, 2, ... in coherence order.
        for writes in &order {
            for (k, &w) in writes.iter().enumerate() {
                for node in self.threads.iter_mut().flatten() {
                    if let Node::Access { event, value, .. } = node {
                        if *event == w {
                            *value = k as i64 + 1;
                        }
                    }
                }
            }
        }
        Ok(order)
    }

    fn value_of(&self, event: usize) -> i64 {
        self.threads
            .iter()
            .flatten()
            .find_map(|n| match *n {
                Node::Access {
                    event: ev, value, ..
                } if ev == event => Some(value),
                _ => None,
            })
            .unwrap_or(0)
    }

    /// The condition: each read's value the cycle fixes, each twice-written location's
    /// last write.
    fn condition(
        &mut self,
        order: &[Vec<usize>],
        op_of: &dyn Fn(usize) -> usize,
        thread_of: &[usize],
    ) -> Result<(), GenError> {
        let e = &self.cycle.edges;
        let n = e.len();
        let mut exists = Vec::new();
        for i in 0..n {
            if !self.event_kind[i].reads() || op_of(i) != i {
                continue;
            }
            let into = prev(i, n);
            let value = if e[into].kind == EdgeKind::Rf {
                Some(self.value_of(op_of(into)))
            } else if e[i].kind == EdgeKind::Fr {
                let target = op_of((i + 1) % n);
                let writes = &order[self.event_loc[i]];
                let pos = writes.iter().position(|&w| w == target).unwrap_or(0);
                Some(if pos == 0 {
                    0
                } else {
                    self.value_of(writes[pos - 1])
                })
            } else {
                None
            };
            if let (Some(v), Some(reg)) = (value, self.reg_of(i)) {
                exists.push((
                    Obs::Reg {
                        thread: thread_of[i],
                        reg,
                    },
                    v,
                ));
            }
        }
        exists.sort();
        for (loc, writes) in order.iter().enumerate() {
            if writes.len() == 2 {
                exists.push((Obs::Loc(loc), self.value_of(writes[1])));
            }
        }
        if exists.is_empty() {
            return Err(GenError::new(
                ErrorKind::NoCommunication,
                "the cycle has no communication edge (Rf, Fr, Co) that the final state can show: its outcome would be every execution",
            ));
        }
        self.exists = exists;
        Ok(())
    }

    /// The classic name of the cycle (fences and dependencies count as program order),
    /// or its edges from the walk's start joined by `+`.
    fn family_name(&self, walk: &[usize]) -> String {
        let e = &self.cycle.edges;
        let plain: Vec<String> = walk
            .iter()
            .map(|&i| match e[i].kind {
                EdgeKind::Fenced | EdgeKind::Dp(_) => {
                    let ds = if e[i].same_loc { 's' } else { 'd' };
                    format!("Po{ds}{:?}{:?}", e[i].src, e[i].tgt)
                }
                _ => e[i].name(),
            })
            .collect();
        match names::family(&plain) {
            Some(f) => f.to_string(),
            None => walk
                .iter()
                .map(|&i| e[i].name())
                .collect::<Vec<_>>()
                .join("+"),
        }
    }
}

fn dir_word(d: Dir) -> &'static str {
    match d {
        Dir::R => "a read",
        Dir::W => "a write",
    }
}

/// The operations of each invocation, and the invocation of each event.
fn invocations(
    cycle: &Cycle,
    walk: &[usize],
    op_of: &dyn Fn(usize) -> usize,
) -> (Vec<Vec<Node>>, Vec<usize>) {
    let e = &cycle.edges;
    let n = e.len();
    let mut threads: Vec<Vec<Node>> = vec![Vec::new()];
    let mut thread_of = vec![0; n];
    let mut barriers = 0u32;
    let mut instances: Vec<Option<u32>> = vec![None; n];
    for (i, inst) in instances.iter_mut().enumerate() {
        if matches!(e[i].kind, EdgeKind::Cbar)
            || e[i].kind == EdgeKind::Fenced && e[i].fence.kind == Some(FenceKind::Cbar)
        {
            barriers += 1;
            *inst = Some(barriers);
        }
    }
    // The walk starts after an external edge: a barrier edge there puts its second half
    // first.
    let before = prev(walk[0], n);
    if e[before].kind == EdgeKind::Cbar {
        threads[0].push(Node::Fence {
            edge: before,
            instance: instances[before],
        });
    }
    let mut deps: Vec<Option<(DpKind, usize)>> = vec![None; n];
    for (j, &i) in walk.iter().enumerate() {
        thread_of[i] = threads.len() - 1;
        if op_of(i) == i {
            threads.last_mut().expect("a thread").push(Node::Access {
                event: i,
                reg: None,
                value: 0,
                dep: deps[i],
            });
        }
        match e[i].kind {
            EdgeKind::Fenced => threads.last_mut().expect("a thread").push(Node::Fence {
                edge: i,
                instance: instances[i],
            }),
            EdgeKind::Dp(k) => deps[(i + 1) % n] = Some((k, op_of(i))),
            _ => {}
        }
        if e[i].external && j + 1 < n {
            if e[i].kind == EdgeKind::Cbar {
                threads.last_mut().expect("a thread").push(Node::Fence {
                    edge: i,
                    instance: instances[i],
                });
                threads.push(vec![Node::Fence {
                    edge: i,
                    instance: instances[i],
                }]);
            } else {
                threads.push(Vec::new());
            }
        } else if e[i].external && e[i].kind == EdgeKind::Cbar {
            threads.last_mut().expect("a thread").push(Node::Fence {
                edge: i,
                instance: instances[i],
            });
        }
    }
    (threads, thread_of)
}

/// The location of each event, numbered by first appearance in the test (invocation
/// order, then program order).
fn locations_of(cycle: &Cycle, threads: &[Vec<Node>], start: usize) -> (Vec<usize>, usize) {
    let e = &cycle.edges;
    let n = e.len();
    let arrive = (0..n).find(|&i| !e[prev(i, n)].same_loc).unwrap_or(start);
    let mut segment = vec![0usize; n];
    let mut s = 0;
    for j in 0..n {
        let i = (arrive + j) % n;
        segment[i] = s;
        if !e[i].same_loc {
            s += 1;
        }
    }
    // Renumber segments by first appearance among the operations.
    let mut names: Vec<Option<usize>> = vec![None; n.max(s)];
    let mut next = 0;
    for node in threads.iter().flatten() {
        if let Node::Access { event, .. } = *node {
            let seg = segment[event];
            if names[seg].is_none() {
                names[seg] = Some(next);
                next += 1;
            }
        }
    }
    let event_loc = (0..n)
        .map(|i| names[segment[i]].expect("every segment has an access"))
        .collect();
    (event_loc, next)
}

/// The external edges in the order the walk meets them.
fn externals_in_ring_order(cycle: &Cycle, walk: &[usize]) -> Vec<usize> {
    walk.iter()
        .copied()
        .filter(|&i| cycle.edges[i].external)
        .collect()
}
