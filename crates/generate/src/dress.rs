//! A shape dressed with annotations (docs/generate.md "Annotations"): what the cycle
//! says, the defaults for the rest ([`Shape::defaults`]), or a family's choices; and the
//! test, its name and its fully annotated cycle ([`Shape::test`]).

use super::ann::{Access, AccessSpec, Fence, FenceKind, Kind, Level};
use super::build::{prev, Node, Shape};
use super::cycle::{DpKind, EdgeKind};
use super::error::{ErrorKind, GenError, TokenRef};
use super::names;
use super::place;
use super::test::{loc_name, Dep, Op, Test, Thread};

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

impl Shape {
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
                            d.storage_word(k),
                            d.storage_word(old),
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

    /// The rules of the dialect a choice must keep ([`super::dialects::GenDialect::check`]:
    /// OpenCL's on local memory and barriers).
    pub fn check_dialect(&self, c: &Choice) -> Result<(), GenError> {
        self.cycle.dialect.check(&self.test(c))
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
