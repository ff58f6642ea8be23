//! From a cycle to a test (docs/generate.md "From a cycle to a test").
//!
//! The structure comes from the edges alone ([`Shape::new`]): the invocations (a new one
//! after each external edge), the locations (a new one after each `..d..` edge), the
//! order of the writes to each location, the values, and the condition. The annotations
//! ([`Choice`]) then dress it ([`Shape::test`]); a family is one shape dressed many ways.
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

use super::ann::{Access, AccessSpec, Fence, FenceKind, Kind, Level};
use super::cycle::{Cycle, Dir, DpKind, EdgeKind};
use super::error::{ErrorKind, GenError, TokenRef};
use super::names;
use super::place;
use super::test::{loc_name, Dep, Obs, Op, Test, Thread};
use vkherd_model::Dialect;

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

/// The annotations of one test of a shape.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Choice {
    /// Per event (both halves of an RMW carry the same).
    pub access: Vec<Access>,
    /// Per edge: the fence of `Fenced..` and `Cbar..` edges.
    pub fences: Vec<Option<Fence>>,
    /// Per ring edge.
    pub levels: Vec<Level>,
    /// Per location.
    pub storage: Vec<u8>,
}

fn prev(i: usize, n: usize) -> usize {
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
    fn reg_of(&self, event: usize) -> Option<u32> {
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

    /// The storage classes of an edge's two endpoints (the default semantics of a fence).
    fn classes_around(&self, edge: usize, storage: &[u8]) -> u8 {
        let n = self.cycle.edges.len();
        let a = storage[self.event_loc[edge]];
        let b = storage[self.event_loc[(edge + 1) % n]];
        (1 << a) | (1 << b)
    }

    /// The annotations the cycle gives, with defaults for the rest.
    pub fn defaults(&self) -> Result<Choice, GenError> {
        let storage = self.storage_given()?;
        let access = (0..self.cycle.edges.len())
            .map(|i| self.resolve_access(i, &self.event_spec(i)?, &storage))
            .collect::<Result<Vec<_>, _>>()?;
        let fences = (0..self.cycle.edges.len())
            .map(|i| self.resolve_fence(i, &self.cycle.edges[i].fence, &storage))
            .collect::<Result<Vec<_>, _>>()?;
        let levels = self.levels(&self.given_levels())?;
        let choice = Choice {
            access,
            fences,
            levels,
            storage,
        };
        self.check_dialect(&choice)?;
        Ok(choice)
    }

    /// What the cycle says about event `i` (both halves of an RMW merged).
    pub fn event_spec(&self, i: usize) -> Result<AccessSpec, GenError> {
        let n = self.cycle.edges.len();
        let ev = &self.cycle.events;
        if self.event_kind[i] != Kind::Rmw {
            return Ok(ev[i].spec.clone());
        }
        let (r, w) = if self.cycle.edges[i].kind == EdgeKind::Rmw {
            (i, (i + 1) % n)
        } else {
            (prev(i, n), i)
        };
        ev[r]
            .spec
            .merge(&ev[w].spec, self.cycle.dialect)
            .map_err(|m| {
                let t = ev[w].token.as_ref().or(ev[r].token.as_ref());
                self.error_at(ErrorKind::Incompatible, t, i, m)
            })
    }

    /// An error at `token`, or at the edge leaving event `i` when no bracket said anything.
    fn error_at(&self, kind: ErrorKind, token: Option<&TokenRef>, i: usize, m: String) -> GenError {
        let t = token.unwrap_or(&self.cycle.edges[i].token);
        GenError::at(kind, t, m)
    }

    /// Resolves an access annotation for event `i`.
    pub fn resolve_access(
        &self,
        i: usize,
        spec: &AccessSpec,
        storage: &[u8],
    ) -> Result<Access, GenError> {
        Access::resolve(
            spec,
            self.event_kind[i],
            storage[self.event_loc[i]],
            self.cycle.dialect,
        )
        .map_err(|m| {
            let m = format!("{m} (event {} of the cycle)", i + 1);
            self.error_at(
                ErrorKind::Incompatible,
                self.cycle.events[i].token.as_ref(),
                i,
                m,
            )
        })
    }

    /// Resolves the fence of edge `i` (`None` for edges without one).
    pub fn resolve_fence(
        &self,
        i: usize,
        spec: &super::ann::FenceSpec,
        storage: &[u8],
    ) -> Result<Option<Fence>, GenError> {
        let kind = match self.cycle.edges[i].kind {
            EdgeKind::Fenced => FenceKind::Membar,
            EdgeKind::Cbar => FenceKind::Cbar,
            _ => return Ok(None),
        };
        Fence::resolve(
            spec,
            kind,
            self.classes_around(i, storage),
            self.cycle.dialect,
        )
        .map(Some)
        .map_err(|m| GenError::at(ErrorKind::Incompatible, &self.cycle.edges[i].token, m))
    }

    /// The storage class of each location as the events say (0 unless said).
    pub fn storage_given(&self) -> Result<Vec<u8>, GenError> {
        let mut said: Vec<Option<(u8, usize)>> = vec![None; self.locations];
        for i in 0..self.cycle.edges.len() {
            let Some(k) = self.cycle.events[i].spec.storage else {
                continue;
            };
            let loc = self.event_loc[i];
            match said[loc] {
                Some((old, j)) if old != k => {
                    let d = self.cycle.dialect;
                    return Err(self.error_at(
                        ErrorKind::Incompatible,
                        self.cycle.events[i].token.as_ref(),
                        i,
                        format!(
                            "location {} is `{}` here and `{}` at event {}: a location has one storage class",
                            loc_name(loc),
                            super::ann::storage_word(k, d),
                            super::ann::storage_word(old, d),
                            j + 1
                        ),
                    ));
                }
                _ => said[loc] = Some((k, i)),
            }
        }
        Ok(said.iter().map(|s| s.map_or(0, |(k, _)| k)).collect())
    }

    /// The placements written on the ring's edges.
    pub fn given_levels(&self) -> Vec<Option<Level>> {
        self.ring
            .iter()
            .map(|&i| self.cycle.edges[i].place)
            .collect()
    }

    /// The ring's levels from `given` (with defaults), or why they cannot be.
    pub fn levels(&self, given: &[Option<Level>]) -> Result<Vec<Level>, GenError> {
        let barrier: Vec<bool> = self
            .ring
            .iter()
            .map(|&i| self.cycle.edges[i].kind == EdgeKind::Cbar)
            .collect();
        let d = self.cycle.dialect;
        for (k, &i) in self.ring.iter().enumerate() {
            if barrier[k] && given[k].is_some_and(|l| l > Level::Wg) {
                return Err(GenError::at(
                    ErrorKind::Placement,
                    &self.cycle.edges[i].token,
                    format!(
                        "a control barrier joins invocations of one workgroup, not `@{}`; expected @sg or @wg",
                        given[k].map_or("", |l| l.word(d))
                    ),
                ));
            }
        }
        let levels = place::fill(given, &barrier);
        if let Some(k) = place::inconsistent(&levels) {
            let others: Vec<String> = self
                .ring
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != k)
                .map(|(j, &i)| {
                    format!(
                        "`{}` @{}",
                        self.cycle.edges[i].token.text,
                        levels[j].word(d)
                    )
                })
                .collect();
            return Err(GenError::at(
                ErrorKind::Placement,
                &self.cycle.edges[self.ring[k]].token,
                format!(
                    "this edge puts its invocations @{} apart, but the rest of the ring ({}) puts them closer: going round the ring, the largest placement must come twice",
                    levels[k].word(d),
                    others.join(", ")
                ),
            ));
        }
        Ok(levels)
    }

    /// The rules of the dialect a choice must keep: an OpenCL local location is used by
    /// one work-group only, and OpenCL barriers (which meet by count in a work-group)
    /// come as many in every invocation of a work-group that has any.
    pub fn check_dialect(&self, c: &Choice) -> Result<(), GenError> {
        if self.cycle.dialect != Dialect::OpenCl {
            return Ok(());
        }
        let test = self.test(c);
        check_opencl(&test)
    }

    /// The test of this shape with these annotations.
    pub fn test(&self, c: &Choice) -> Test {
        let places = place::places(&place::ring_distances(&c.levels));
        let threads = self
            .threads
            .iter()
            .zip(places)
            .map(|(nodes, place)| Thread {
                place,
                ops: nodes.iter().map(|n| self.op(n, c)).collect(),
            })
            .collect();
        Test {
            dialect: self.cycle.dialect,
            name: self.name(c),
            description: format!("diy cycle: {}", self.cycle_text(c)),
            threads,
            storage: c.storage.clone(),
            exists: self.exists.clone(),
            observe: Vec::new(),
        }
    }

    fn op(&self, node: &Node, c: &Choice) -> Op {
        match *node {
            Node::Fence { edge, instance } => Op::Fence {
                fence: c.fences[edge].expect("a fence edge has a fence"),
                instance,
            },
            Node::Access {
                event,
                reg,
                value,
                dep,
            } => Op::Access {
                kind: self.event_kind[event],
                loc: self.event_loc[event],
                reg,
                value,
                access: c.access[event],
                dep: dep.and_then(|(k, src)| {
                    let r = self.reg_of(src)?;
                    match k {
                        DpKind::Data => Some(Dep::Data(r)),
                        DpKind::Ctrl => Some(Dep::Ctrl(r)),
                        DpKind::Addr => None,
                    }
                }),
            },
        }
    }

    /// The test's name: the family, each invocation's annotations when any is not the
    /// default, and the placement when not the default.
    pub fn name(&self, c: &Choice) -> String {
        let d = self.cycle.dialect;
        let mut parts = Vec::new();
        let mut plain = true;
        for nodes in &self.threads {
            let mut words = Vec::new();
            for node in nodes {
                match *node {
                    Node::Access { event, dep, .. } => {
                        if let Some((k, _)) = dep {
                            words.push(match k {
                                DpKind::Data => "data".to_string(),
                                _ => "ctrl".to_string(),
                            });
                            plain = false;
                        }
                        let code = names::access_code(
                            self.event_kind[event],
                            &c.access[event],
                            c.storage[self.event_loc[event]],
                            d,
                            true,
                        );
                        plain &= code == "rlx";
                        words.push(code);
                    }
                    Node::Fence { edge, .. } => {
                        let f = c.fences[edge].expect("a fence edge has a fence");
                        words.push(names::fence_code(
                            &f,
                            d,
                            self.classes_around(edge, &c.storage),
                        ));
                        plain = false;
                    }
                }
            }
            parts.push(words.join("-"));
        }
        let mut name = self.family.clone();
        if !plain {
            name.push('+');
            name.push_str(&parts.join("+"));
        }
        name.push_str(&names::placement_code(&c.levels, d));
        name
    }

    /// The cycle with every annotation written out (for the description and the index).
    pub fn cycle_text(&self, c: &Choice) -> String {
        let d = self.cycle.dialect;
        let e = &self.cycle.edges;
        let n = e.len();
        let mut out = Vec::new();
        for i in 0..n {
            if !(self.event_kind[i] == Kind::Rmw && e[prev(i, n)].kind == EdgeKind::Rmw) {
                out.push(format!(
                    "[{}]",
                    names::access_code(
                        self.event_kind[i],
                        &c.access[i],
                        c.storage[self.event_loc[i]],
                        d,
                        true,
                    )
                ));
            }
            let mut edge = e[i].name();
            if let Some(f) = c.fences[i] {
                let code = names::fence_code(&f, d, self.classes_around(i, &c.storage));
                if let Some(rest) = code.get(1..).filter(|r| !r.is_empty()) {
                    edge.push_str(rest);
                }
                if f.kind == FenceKind::Cbar && e[i].kind == EdgeKind::Fenced {
                    edge.push_str(".cbar");
                }
            }
            if let Some(k) = self.ring.iter().position(|&r| r == i) {
                edge.push_str(&format!("@{}", c.levels[k].word(d)));
            }
            out.push(edge);
        }
        out.join(" ")
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

/// The OpenCL dialect's rules on a generated test (see [`Shape::check_dialect`]).
pub fn check_opencl(test: &Test) -> Result<(), GenError> {
    for (loc, &k) in test.storage.iter().enumerate() {
        if k != 1 {
            continue;
        }
        let groups: std::collections::BTreeSet<(u32, u32)> = test
            .threads
            .iter()
            .filter(|t| {
                t.ops
                    .iter()
                    .any(|op| matches!(op, Op::Access { loc: l, .. } if *l == loc))
            })
            .map(|t| (t.place.qf, t.place.wg))
            .collect();
        if groups.len() > 1 {
            return Err(GenError::new(
                ErrorKind::Incompatible,
                format!(
                    "location {} is local, and local memory belongs to one work-group, but invocations of {} work-groups use it; expected `global` or one work-group",
                    loc_name(loc),
                    groups.len()
                ),
            ));
        }
    }
    let barriers = |t: &Thread| {
        t.ops
            .iter()
            .filter(|op| matches!(op, Op::Fence { fence, .. } if fence.kind == FenceKind::Cbar))
            .count()
    };
    for t in &test.threads {
        let same: Vec<usize> = test
            .threads
            .iter()
            .filter(|u| u.place.qf == t.place.qf && u.place.wg == t.place.wg)
            .map(barriers)
            .filter(|&b| b > 0)
            .collect();
        if same.windows(2).any(|w| w[0] != w[1]) {
            return Err(GenError::new(
                ErrorKind::NotExpressible,
                "OpenCL barriers meet by count within a work-group, and the invocations of one work-group here have different numbers of barriers: keep one barrier edge per work-group",
            ));
        }
    }
    Ok(())
}
