//! The screen's coherence test: per location, can the threads' accesses be interleaved so
//! that each read returns the last write before it?
//!
//! Why a consistent candidate has such an interleaving. On a location the coherence core
//! covers ([`super::Core`]), with its `po_loc` term, and whose writes asmo orders totally,
//! every consistent candidate has `rf | asmo | fr_asmo | fr_init | po_loc` acyclic on the
//! location's accesses. Sort them along that union: a total order `L` that keeps each
//! thread's order (`po_loc`, checked below to chain each thread's accesses) and puts
//! each read after its source (`rf`). No write `w2` lies between a read `r` and its
//! source `w`: `w2` is asmo-ordered with `w` (asmo is total there), after it (`w2 asmo w`
//! would be an edge of the union against `L`), so `r fr_asmo w2` puts `r` before `w2`;
//! and a read of the initial value precedes every write (`fr_init`). So in `L` each read
//! (an RMW's read too, being one event) returns the value of the last write before it,
//! or the initial value if there is none. Its value is in its set and the write's in the
//! write's set (the caller's sets hold every candidate's values: the fixpoint's, narrowed
//! by the branches), and its source is among `sources` (which keeps every source of such
//! a candidate).
//!
//! The test looks for such an order by a search over the threads' positions, the last
//! write and its value (one value of the write's set: a write stores one value), so "no
//! order" means no consistent candidate, and the combination may be skipped. Locations
//! where an assumption fails, or whose search would exceed [`MAX_STATES`], are not
//! tested (answering "an order exists" only keeps a combination).

use super::{Combination, Core, Vals};
use crate::values::Source;
use std::collections::HashSet;
use vkherd_model::{Flags, Rel};

/// Locations whose search could visit more states than this are not tested.
const MAX_STATES: usize = 1 << 16;

/// Does every location the test applies to have an interleaving of its accesses in
/// which each read returns the last write before it (see the module comment)?
pub(super) fn orders_exist(
    v: &Combination<'_>,
    core: &Core<'_>,
    src: &[Vec<Source>],
    read: &[Vals],
    write: &[Vals],
) -> bool {
    let tested = tested_locations(v, core, src);
    if tested.is_empty() {
        return true;
    }
    let flags: Vec<Flags> = v.lay.events.iter().map(|e| e.flags).collect();
    (tested.iter()).all(|loc| loc.has_order(&flags, (src, read, write), None))
}

/// The locations the test applies to (none without the core's `po_loc` term).
fn tested_locations(v: &Combination<'_>, core: &Core<'_>, src: &[Vec<Source>]) -> Vec<Location> {
    if !core.terms.po_loc {
        return Vec::new();
    }
    let mut locations: Vec<_> = (v.lay.events.iter())
        .filter(|e| e.flags.0 & (Flags::R.0 | Flags::W.0) != 0)
        .filter_map(|e| e.location)
        .collect();
    locations.sort_unstable();
    locations.dedup();
    (locations.into_iter())
        .filter_map(|l| Location::of(v, core, src, l))
        .collect()
}

/// What a search node chose so far, which the order must keep: each chosen read returns
/// its chosen source, and each write comes after the writes asmo puts before it.
#[derive(Clone, Copy)]
struct Chosen<'a> {
    rf: &'a [Option<Source>],
    asmo: &'a Rel,
    /// The location's writes, and each event's thread and index in its location's
    /// sequence.
    writes: &'a [usize],
    place: &'a [(usize, usize)],
}

impl Chosen<'_> {
    /// Is every write asmo-before `w` among those placed at positions `pos`?
    fn placed_after_its_writes(&self, w: usize, pos: &[usize]) -> bool {
        (self.writes.iter())
            .filter(|&&a| self.asmo.contains(a, w))
            .all(|&a| {
                let (t, i) = self.place[a];
                i < pos[t]
            })
    }
}

/// The coherence test asked at the search's nodes (search.rs, "the order lookahead"):
/// the same order, now also keeping the rf and asmo the node chose. Sound for the same
/// reason as the test itself: a consistent completion of the node has such an order
/// (the module comment), and in it each read returns its rf source, which contains the
/// node's, and the writes follow its asmo (the order sorts along a union containing
/// asmo), which contains the node's. So a node whose location has no such order has no
/// consistent completion.
pub(crate) struct Lookahead {
    locations: Vec<Location>,
    /// Each tested location's writes.
    writes: Vec<Vec<usize>>,
    /// The tested location of each event, if any.
    at: Vec<Option<usize>>,
    /// Each event's thread and index in its location's sequence.
    place: Vec<(usize, usize)>,
    flags: Vec<Flags>,
    src: Vec<Vec<Source>>,
    read: Vec<Vals>,
    write: Vec<Vals>,
}

impl Lookahead {
    pub(super) fn new(
        v: &Combination<'_>,
        core: &Core<'_>,
        src: Vec<Vec<Source>>,
        read: Vec<Vals>,
        write: Vec<Vals>,
    ) -> Option<Lookahead> {
        let events = &v.lay.events;
        let n = events.len();
        let locations = tested_locations(v, core, &src);
        if locations.is_empty() {
            return None;
        }
        let flags: Vec<Flags> = events.iter().map(|e| e.flags).collect();
        let mut at = vec![None; n];
        let mut place = vec![(0, 0); n];
        let mut writes = Vec::new();
        for (k, loc) in locations.iter().enumerate() {
            for (t, seq) in loc.threads.iter().enumerate() {
                for (i, &e) in seq.iter().enumerate() {
                    at[e] = Some(k);
                    place[e] = (t, i);
                }
            }
            let w = (loc.threads.iter().flatten().copied())
                .filter(|&e| flags[e].0 & Flags::W.0 != 0)
                .collect();
            writes.push(w);
        }
        Some(Lookahead {
            locations,
            writes,
            at,
            place,
            flags,
            src,
            read,
            write,
        })
    }

    /// Has the location of `e` an order keeping the rf and asmo chosen so far? (`true`
    /// where `e`'s location is not tested.)
    pub(crate) fn may_complete(&self, e: usize, rf: &[Option<Source>], asmo: &Rel) -> bool {
        let Some(k) = self.at[e] else {
            return true;
        };
        let chosen = Chosen {
            rf,
            asmo,
            writes: &self.writes[k],
            place: &self.place,
        };
        let sets = (&self.src[..], &self.read[..], &self.write[..]);
        self.locations[k].has_order(&self.flags, sets, Some(chosen))
    }
}

/// One location's accesses, per thread in program order, when the test applies to it.
struct Location {
    /// Each thread's accesses to the location, in program order.
    threads: Vec<Vec<usize>>,
    init: i64,
}

impl Location {
    fn of(
        v: &Combination<'_>,
        core: &Core<'_>,
        src: &[Vec<Source>],
        l: vkherd_model::LocId,
    ) -> Option<Location> {
        let events = &v.lay.events;
        let access = |e: usize| {
            events[e].location == Some(l) && events[e].flags.0 & (Flags::R.0 | Flags::W.0) != 0
        };
        let threads: Vec<Vec<usize>> = (v.lay.step_events.iter())
            .map(|steps| {
                steps
                    .iter()
                    .flatten()
                    .copied()
                    .filter(|&e| access(e))
                    .collect()
            })
            .collect();
        let all = || threads.iter().flatten().copied();
        let is_write = |e: usize| events[e].flags.0 & Flags::W.0 != 0;
        // The core holds on the location.
        if !all().all(|e| core.terms.covers(e)) {
            return None;
        }
        // `po_loc` chains each thread's accesses.
        if !(threads.iter()).all(|t| t.windows(2).all(|p| core.po_loc.contains(p[0], p[1]))) {
            return None;
        }
        // asmo orders the writes totally.
        let writes: Vec<usize> = all().filter(|&e| is_write(e)).collect();
        if !(writes.iter()).all(|&a| {
            writes
                .iter()
                .all(|&b| a == b || core.asmo_pairs.contains(a, b))
        }) {
            return None;
        }
        // Every source is a write of the location (a pinned source elsewhere is not
        // ordered by the core).
        let own = |s: &Source| match *s {
            Source::Init => true,
            Source::Write(w) => access(w),
        };
        if !all().all(|e| src[e].iter().all(own)) {
            return None;
        }
        Some(Location {
            threads,
            init: v.program.locations[l].init,
        })
    }

    /// Depth-first search for the order, over states (positions, last write, its value),
    /// keeping what the search chose so far (`chosen`, if asked from a search node).
    fn has_order(
        &self,
        flags: &[Flags],
        (src, read, write): (&[Vec<Source>], &[Vals], &[Vals]),
        chosen: Option<Chosen<'_>>,
    ) -> bool {
        let has = |e: usize, f: Flags| flags[e].0 & f.0 != 0;
        // The values a write may store, `None` for any value.
        let stored = |w: usize| -> Vec<Option<i64>> {
            match &write[w] {
                Vals::Set(s) if !s.is_empty() => s.iter().map(|&x| Some(x)).collect(),
                // An empty set is no constraint here (the caller's other checks own it).
                _ => vec![None],
            }
        };
        let writes = (self.threads.iter().flatten())
            .filter(|&&e| has(e, Flags::W))
            .count();
        let width = (self.threads.iter().flatten())
            .filter(|&&e| has(e, Flags::W))
            .map(|&w| stored(w).len())
            .max()
            .unwrap_or(1);
        let bound = (self.threads.iter())
            .map(|t| t.len() + 1)
            .try_fold(writes + 1, usize::checked_mul)
            .and_then(|b| b.checked_mul(width));
        if bound.is_none_or(|b| b > MAX_STATES) {
            return true;
        }
        type State = (Vec<usize>, Option<usize>, Option<i64>);
        let start: State = (vec![0; self.threads.len()], None, Some(self.init));
        let mut seen: HashSet<State> = HashSet::new();
        let mut stack = vec![start];
        while let Some(state) = stack.pop() {
            if !seen.insert(state.clone()) {
                continue;
            }
            let (pos, last, value) = &state;
            if pos.iter().zip(&self.threads).all(|(&p, t)| p == t.len()) {
                return true;
            }
            for (t, accesses) in self.threads.iter().enumerate() {
                let Some(&e) = accesses.get(pos[t]) else {
                    continue;
                };
                if has(e, Flags::R) {
                    let source = match *last {
                        None => Source::Init,
                        Some(w) => Source::Write(w),
                    };
                    let value_ok = match value {
                        Some(x) => read[e].contains(*x),
                        None => !read[e].is_empty(),
                    };
                    if !src[e].contains(&source) || !value_ok {
                        continue;
                    }
                    if chosen.is_some_and(|c| c.rf[e].is_some_and(|s| s != source)) {
                        continue;
                    }
                }
                // A write goes after every write chosen asmo-before it.
                if has(e, Flags::W) && chosen.is_some_and(|c| !c.placed_after_its_writes(e, pos)) {
                    continue;
                }
                let mut next = pos.clone();
                next[t] += 1;
                if has(e, Flags::W) {
                    for x in stored(e) {
                        stack.push((next.clone(), Some(e), x));
                    }
                } else {
                    stack.push((next, *last, *value));
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::super::{may_have_values, Combination, Core};
    use super::Lookahead;
    use crate::candidates::asmo_pairs;
    use crate::combine::{layout, Layout};
    use crate::engine::Shortcuts;
    use crate::paths::{thread_paths, Path, PathLimits, Step};
    use crate::values::Source;
    use crate::values::ValueSolver;
    use vkherd_model::{Instruction, ModelOptions, Program, Rel, Statics};

    /// A test of the liveness corpus: `ttas-lock` (test-and-test-and-set: spin reading
    /// the lock until it is free, then exchange 1; again if the exchange read 1) or
    /// `tas-lock` (exchange until it reads 0).
    fn corpus(name: &str) -> Program {
        let path = format!(
            "{}/../../litmus-tests/liveness/{name}.litmus",
            env!("CARGO_MANIFEST_DIR")
        );
        let source = std::fs::read_to_string(path).expect("the corpus test");
        vkherd_dialects::load(&source).expect("it loads")
    }

    /// The path of thread `t` that never spins and whose exchange fails `fails` times.
    fn failing(program: &Program, t: usize, fails: usize) -> Path {
        let code = &program.threads[t].code;
        let retry = code
            .iter()
            .rposition(|i| matches!(i, Instruction::Jump { .. }))
            .expect("the retry jump");
        let paths = thread_paths(&program.threads[t], t, 3, PathLimits::default()).unwrap();
        let taken = |p: &Path, at: &dyn Fn(usize) -> bool| {
            (p.steps.iter())
                .filter(|s| matches!(s, Step::Jump { index, taken: true } if at(*index)))
                .count()
        };
        (paths.paths.into_iter())
            .find(|p| taken(p, &|i| i == retry) == fails && taken(p, &|i| i != retry) == 0)
            .expect("such a path")
    }

    /// The screen's view of the combination where P0 fails `fails[0]` times and P1
    /// `fails[1]` times, with the coherence core everywhere (Vulkan's), handed to `f`
    /// with the layout.
    fn screened<R>(
        program: &Program,
        fails: [usize; 2],
        f: impl FnOnce(&Combination<'_>, &Layout) -> R,
    ) -> R {
        let paths = [failing(program, 0, fails[0]), failing(program, 1, fails[1])];
        let combo: Vec<&Path> = paths.iter().collect();
        let lay = layout(program, &combo);
        let n = lay.events.len();
        let s = Statics::new(
            program,
            lay.events.clone(),
            Rel::empty(n),
            &ModelOptions::default(),
        );
        let (pairs, _) = asmo_pairs(program, &s, None);
        let solver = ValueSolver::new(program, combo.clone(), &lay);
        let terms = Shortcuts::ALL.core.expect("the hand engine's core");
        let combination = Combination {
            program,
            paths: combo,
            lay: &lay,
            universe: solver.universe(),
            roles: None,
            rf_allowed: &|_, _| true,
            core: Some(Core::new(&s, terms, &pairs)),
            probe_values: true,
        };
        f(&combination, &lay)
    }

    /// Does the screen keep the combination where P0 fails `f0` times and P1 `f1` times?
    fn kept(f0: usize, f1: usize) -> bool {
        screened(&corpus("ttas-lock"), [f0, f1], |c, _| may_have_values(c))
    }

    /// The test-and-set lock of the liveness corpus, P0 taking the lock at once and P1
    /// failing once: its order lookahead, and P0's exchange and release and P1's two
    /// exchanges and release, in program order.
    fn tas_lock_lookahead() -> (Lookahead, [usize; 5]) {
        screened(&corpus("tas-lock"), [0, 1], |c, lay| {
            let lookahead = super::super::lookahead(c).expect("the lock's location is tested");
            let of = |t: usize| -> Vec<usize> {
                (0..lay.events.len())
                    .filter(|&e| lay.events[e].thread == t)
                    .collect()
            };
            let (p0, p1) = (of(0), of(1));
            assert_eq!((p0.len(), p1.len()), (2, 3), "exchange(s) and release");
            (lookahead, [p0[0], p0[1], p1[0], p1[1], p1[2]])
        })
    }

    #[test]
    fn the_lookahead_keeps_what_the_search_chose() {
        let (lookahead, [a0, s0, b1, b2, s1]) = tas_lock_lookahead();
        let n = lookahead.flags.len();
        let mut rf = vec![None; n];
        let mut asmo = Rel::empty(n);
        // P1's failed exchange reads P0's 1, placed after it: the order a0 b1 s0 b2 s1.
        rf[b1] = Some(Source::Write(a0));
        asmo.insert(a0, b1);
        assert!(lookahead.may_complete(b1, &rf, &asmo));
        // The same rf with the exchanges' asmo reversed: b1 would return the last write
        // before it, and a0 comes after it.
        let mut reversed = Rel::empty(n);
        reversed.insert(b1, a0);
        assert!(!lookahead.may_complete(b1, &rf, &reversed));
        // P1's second exchange reads the initial 0, though its first exchange, before it,
        // wrote: the values alone allow it (P0's release stores 0), the chosen rf not.
        let mut init = vec![None; n];
        init[b2] = Some(Source::Init);
        assert!(!lookahead.may_complete(b2, &init, &Rel::empty(n)));
        // P0's exchange reads P1's release: all of P1 goes first, and then P1's failed
        // exchange has no 1 to read (only P0's exchange writes one). No coherence cycle
        // yet (b1's rf is open): the values rule it out.
        let mut rf = vec![None; n];
        let mut asmo = Rel::empty(n);
        rf[a0] = Some(Source::Write(s1));
        asmo.insert(s1, a0);
        asmo.insert(s1, s0);
        assert!(!lookahead.may_complete(a0, &rf, &asmo));
    }

    #[test]
    fn a_second_failed_exchange_needs_a_write_coherence_cannot_place() {
        // One failure: P0 reads 0, P1 takes the lock, P0's exchange reads its 1, P1
        // releases, P0 reads 0 and takes the lock.
        assert!(kept(0, 0));
        assert!(kept(1, 0));
        assert!(kept(0, 1));
        // Two: after P1's release (the last write of 0 P0 can read before its second
        // exchange) only P0's own exchanges write 1, all before it. Every value set
        // allows the reads (each may see some exchange's 1 or some 0); only the order
        // of the location's accesses rules the combination out.
        assert!(!kept(2, 0));
        assert!(!kept(0, 2));
    }
}
