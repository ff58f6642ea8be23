//! The choices of a candidate execution on a fixed path combination: rf sources per read
//! and `asmo` orders (semantics.md "Candidate executions", items 2 and 3).

use crate::values::Source;
use vkherd_model::{AsmoShape, Instruction, Pin, Program, Rel, StaticRel, StaticSet, Statics};

/// The possible rf sources of every event (`None` for events that are not reads).
pub fn rf_options(program: &Program, s: &Statics) -> Vec<Option<Vec<Source>>> {
    (0..s.n())
        .map(|e| {
            if !s.set(StaticSet::R).contains(e) {
                return None;
            }
            let ev = &s.events()[e];
            let pin = match &program.threads[ev.thread].code[ev.instr] {
                Instruction::Access(a) => a.pin,
                _ => None,
            };
            Some(match pin {
                Some(Pin::Init) => vec![Source::Init],
                Some(Pin::Impossible) => Vec::new(),
                Some(Pin::Write { thread, index }) => s
                    .events()
                    .iter()
                    .position(|w| w.thread == thread && w.instr == index)
                    .filter(|&w| w != e && s.set(StaticSet::W).contains(w))
                    .map(Source::Write)
                    .into_iter()
                    .collect(),
                // rf in (W->(R-RFINIT)) & (sloc-iden), or the initial value.
                None => std::iter::once(Source::Init)
                    .chain(
                        s.set(StaticSet::W)
                            .iter()
                            .filter(|&w| w != e && s.rel(StaticRel::Sloc).contains(w, e))
                            .map(Source::Write),
                    )
                    .collect(),
            })
        })
        .collect()
}

/// The pairs of writes `asmo` must order one way or the other (both directions listed):
/// which writes a modification order covers is the one choice of the enumerator that
/// depends on the memory model, so the program's dialect says
/// ([`vkherd_model::Dialect::ordered_writes`]): for Vulkan the mutordatom pairs of atomic
/// writes, a *scoped* order that may leave writes out of each other's scope unordered;
/// for OpenCL every pair of writes to one location, so that the orders [`AsmoOrders`]
/// generates are exactly the per-location total orders.
///
/// A model may decide them instead (`model_ordered`, [`crate::Engine::ordered_writes`]: a cat model in
/// Dat3M's event view, whose `co` orders every pair of writes to a location); its
/// `asmo` is then a strict order whose pairs are exactly those.
pub fn asmo_pairs(program: &Program, s: &Statics, model_ordered: Option<Rel>) -> (Rel, AsmoShape) {
    match model_ordered {
        Some(pairs) => (pairs, AsmoShape::ExactPairs),
        None => (
            (program.dialect.ordered_writes)(s),
            program.dialect.asmo_shape,
        ),
    }
}

/// Every `asmo`: a strict partial order on writes whose pairs, in either direction, are
/// exactly [`asmo_pairs`] (Vulkan: `strict_partial_order[asmo]`; OpenCL: total per
/// location); or, for a dialect whose [`AsmoShape`] is `Orientation` (PTX), every acyclic
/// orientation of [`asmo_pairs`], given transitively closed.
///
/// Orientation shape, soundness: the closure of an acyclic orientation O of the pairs D
/// meets D in O exactly (a pair of D in the closure against O would close a cycle), so
/// distinct orientations give distinct relations and a model that reads `asmo` only
/// intersected with pairs of D (ptx.cat, ptx-v6.0.cat: `asmo & ... & strong_r`) sees O.
/// The closure of a partial orientation is contained in that of every completion, so a
/// cycle in it cuts every completion; nothing else cuts (no exact-pairs condition).
///
/// Generated lazily, depth first, by orienting each mutually-ordered pair both ways. A
/// partial orientation is abandoned as soon as its transitive closure has a self-loop or
/// relates two writes that are not mutually ordered: every completion contains that
/// closure (asmo is transitive), and asmo may relate only mutually ordered writes, so no
/// completion would be valid. Complete orientations are kept if transitive.
pub struct AsmoOrders {
    pairs: Vec<(usize, usize)>,
    /// [`asmo_pairs`]: the only pairs asmo may contain (exact-pairs shape).
    allowed: Rel,
    /// The dialect's shape of asmo.
    shape: AsmoShape,
    /// `choice[d]`: 0 = pair d oriented as written, 1 = reversed, 2 = both tried.
    choice: Vec<u8>,
    current: Rel,
    depth: usize,
    done: bool,
}

impl AsmoOrders {
    pub fn new(s: &Statics, (allowed, shape): (Rel, AsmoShape)) -> AsmoOrders {
        let pairs: Vec<(usize, usize)> = allowed.pairs().filter(|&(a, b)| a < b).collect();
        AsmoOrders::seeded(&Rel::empty(s.n()), allowed, pairs, shape)
    }

    /// The orders that extend `seed` (a transitive order on other writes than `pairs`'s)
    /// by orienting each of `pairs`. `allowed` is as in [`AsmoOrders::new`].
    pub fn seeded(
        seed: &Rel,
        allowed: Rel,
        pairs: Vec<(usize, usize)>,
        shape: AsmoShape,
    ) -> AsmoOrders {
        let choice = vec![0; pairs.len()];
        AsmoOrders {
            pairs,
            allowed,
            shape,
            choice,
            current: seed.clone(),
            depth: 0,
            done: false,
        }
    }

    fn oriented(&self, d: usize) -> (usize, usize) {
        let (a, b) = self.pairs[d];
        if self.choice[d] == 0 {
            (a, b)
        } else {
            (b, a)
        }
    }

    /// Can the current partial orientation still be completed?
    fn viable(&self) -> bool {
        let closure = self.current.plus();
        closure.is_irreflexive()
            && (self.shape == AsmoShape::Orientation || closure.is_subset(&self.allowed))
    }

    /// Undoes the orientation at `depth` and moves on to its next choice.
    fn retreat(&mut self) {
        let (x, y) = self.oriented(self.depth);
        self.current.remove(x, y);
        self.choice[self.depth] += 1;
    }
}

impl Iterator for AsmoOrders {
    type Item = Rel;

    fn next(&mut self) -> Option<Rel> {
        loop {
            if self.done {
                return None;
            }
            if self.depth == self.pairs.len() {
                let found = match self.shape {
                    AsmoShape::ExactPairs => {
                        self.current.is_transitive().then(|| self.current.clone())
                    }
                    // Acyclic: every step checked `viable`.
                    AsmoShape::Orientation => Some(self.current.plus()),
                };
                if self.depth == 0 {
                    self.done = true;
                } else {
                    self.depth -= 1;
                    self.retreat();
                }
                if found.is_some() {
                    return found;
                }
                continue;
            }
            if self.choice[self.depth] >= 2 {
                self.choice[self.depth] = 0;
                if self.depth == 0 {
                    self.done = true;
                    return None;
                }
                self.depth -= 1;
                self.retreat();
                continue;
            }
            let (x, y) = self.oriented(self.depth);
            self.current.insert(x, y);
            if self.viable() {
                self.depth += 1;
            } else {
                self.retreat();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    /// Brute force: every orientation of `k` pairs among `n` elements that is transitive.
    fn brute(n: usize, pairs: &[(usize, usize)]) -> usize {
        let allowed = |a: usize, b: usize| pairs.contains(&(a.min(b), a.max(b)));
        (0..1u32 << pairs.len())
            .filter(|mask| {
                let mut r = vec![vec![false; n]; n];
                for (i, &(a, b)) in pairs.iter().enumerate() {
                    if mask & (1 << i) == 0 {
                        r[a][b] = true;
                    } else {
                        r[b][a] = true;
                    }
                }
                (0..n).all(|a| {
                    (0..n).all(|b| (0..n).all(|c| !(r[a][b] && r[b][c]) || (a != c && r[a][c])))
                }) && (0..n).all(|a| (0..n).all(|b| !r[a][b] || allowed(a, b)))
            })
            .count()
    }

    #[test]
    fn lazy_orders_match_brute_force() {
        use super::*;
        // Complete graphs give total orders (n!); a path a-b-c (a, c unordered) gives
        // only the orientations with no a<b<c chain: 2 of 4.
        for (n, pairs) in [
            (3usize, vec![(0usize, 1usize), (0, 2), (1, 2)]),
            (4, vec![(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]),
            (3, vec![(0, 1), (1, 2)]),
            (4, vec![(0, 1), (1, 2), (2, 3), (0, 2)]),
        ] {
            let allowed = Rel::from_pairs(n, pairs.iter().flat_map(|&(a, b)| [(a, b), (b, a)]));
            let it = AsmoOrders {
                shape: AsmoShape::ExactPairs,
                choice: vec![0; pairs.len()],
                pairs: pairs.clone(),
                allowed,
                current: Rel::empty(n),
                depth: 0,
                done: false,
            };
            assert_eq!(it.count(), brute(n, &pairs), "{pairs:?}");
        }
    }

    /// Brute force: every orientation of the pairs that is acyclic.
    fn brute_acyclic(n: usize, pairs: &[(usize, usize)]) -> Vec<super::Rel> {
        use super::Rel;
        let mut out: Vec<Rel> = (0..1u32 << pairs.len())
            .map(|mask| {
                Rel::from_pairs(
                    n,
                    pairs.iter().enumerate().map(|(i, &(a, b))| {
                        if mask & (1 << i) == 0 {
                            (a, b)
                        } else {
                            (b, a)
                        }
                    }),
                )
            })
            .filter(|r| r.plus().is_irreflexive())
            .map(|r| r.plus())
            .collect();
        out.sort_by_key(|r| format!("{:?}", r.pairs().collect::<Vec<_>>()));
        out
    }

    /// The orientation shape (PTX) gives exactly the acyclic orientations of the pairs,
    /// closed, each once: a path a-b-c gives all four (a<b<c included, whose closure
    /// relates a and c although they are no pair), a triangle the 6 total orders.
    #[test]
    fn orientations_match_brute_force() {
        use super::*;
        for (n, pairs) in [
            (3usize, vec![(0usize, 1usize), (0, 2), (1, 2)]),
            (3, vec![(0, 1), (1, 2)]),
            (4, vec![(0, 1), (1, 2), (2, 3), (0, 3)]),
            (5, vec![(0, 1), (1, 2), (2, 3), (3, 4), (0, 2), (2, 4)]),
        ] {
            let allowed = Rel::from_pairs(n, pairs.iter().flat_map(|&(a, b)| [(a, b), (b, a)]));
            let it = AsmoOrders::seeded(
                &Rel::empty(n),
                allowed,
                pairs.clone(),
                AsmoShape::Orientation,
            );
            let mut got: Vec<Rel> = it.collect();
            got.sort_by_key(|r| format!("{:?}", r.pairs().collect::<Vec<_>>()));
            assert_eq!(got, brute_acyclic(n, &pairs), "{pairs:?}");
        }
    }
}
