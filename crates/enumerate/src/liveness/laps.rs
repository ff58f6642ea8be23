//! The conditions a consistent candidate must meet to be a stuck execution
//! (liveness.md "Stuck executions"), checked by [`StuckVisitor`] on each candidate the
//! search hands it, and how a cut path counts (the `unknown` verdict).
//!
//! - Spin iterations: their reads are final (no write is fr-after them), or read a write
//!   of another invocation's laps, or the initial value of a location nothing writes;
//!   and they leave each register they read before writing unchanged.
//! - Laps A and B (unions over the repeating invocations): the lap rule, items 1 to 5.
//! - Iterations passed through without writes must not be spin iterations (the path
//!   would have stopped there), in every mode.
//!
//! Why the search stays exact. The search visits every consistent candidate of the path
//! combination: its cuts only drop candidates that cannot be consistent (search.rs), and
//! a stuck execution must be consistent like any execution. The conditions above are
//! then checked on the complete candidate, exactly. [`StuckVisitor::rf_allowed`] keeps
//! the search from offering rf pairs that the conditions reject whatever the rest of the
//! candidate (each case says why); `visit` checks them again, so the plain enumeration
//! (`--naive`), which offers every pair, finds the same witnesses.

use super::endings::{Ending, LPath};
use super::roles::Roles;
use super::screen::{self, Screen};
use crate::combine::Layout;
use crate::values::{Source, ValueSolver, Values};
use crate::{CandidateView, Judgement, Shortcuts, Visitor, Wanted};
use std::sync::atomic::{AtomicBool, Ordering};
use vkherd_model::{Program, Rel, StaticRel, StaticSet, Statics};

/// What the visitor looks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Stuck executions: spin and lap conditions.
    Witness,
    /// A consistent execution reaching a cut (the cut iteration no spin iteration).
    Reach,
}

/// A candidate that meets the conditions, and its place in a fixed order (the least one
/// is kept, so the result does not depend on scheduling).
#[derive(Debug, Clone)]
pub struct Found {
    pub key: Vec<i64>,
    pub rf: Rel,
    pub rfinit: vkherd_model::EventSet,
    pub asmo: Rel,
    pub values: Values,
    pub racy: bool,
    /// The events and static relations of the candidate's barrier meeting.
    pub statics: Box<Statics>,
}

/// The visitor of one path combination of the liveness check.
pub(crate) struct StuckVisitor<'a> {
    pub program: &'a Program,
    pub paths: &'a [LPath],
    pub lay: &'a Layout,
    pub solver: ValueSolver<'a>,
    pub roles: Roles,
    pub mode: Mode,
    /// How the search uses the screen ([`Visitor::may_find`]); off unless set.
    pub screen: Screen,
    /// The screen rejected the combination, or one of its barrier meetings.
    pub rejected: AtomicBool,
}

impl<'a> StuckVisitor<'a> {
    pub(crate) fn new(
        program: &'a Program,
        paths: &'a [LPath],
        lay: &'a Layout,
        mode: Mode,
    ) -> StuckVisitor<'a> {
        let refs: Vec<&crate::paths::Path> = paths.iter().map(|p| &p.path).collect();
        StuckVisitor {
            program,
            paths,
            lay,
            solver: ValueSolver::new(program, refs, lay),
            roles: Roles::new(program, paths, lay),
            mode,
            screen: Screen::Off,
            rejected: AtomicBool::new(false),
        }
    }

    /// Is `steps[from..to]` of thread `t` a spin iteration in these values: does it leave
    /// every register it reads before writing with its value from its start? (Called only
    /// for iterations without writes.)
    fn is_spin(&self, t: usize, trace: &[Vec<i64>], (from, to): (usize, usize)) -> bool {
        let steps = &self.paths[t].path.steps[from..to];
        super::endings::read_first_registers(&self.program.threads[t], steps)
            .into_iter()
            .all(|r| trace[from].get(r as usize) == trace[to].get(r as usize))
    }

    /// The register and value conditions of every thread (spin iterations, laps' item 1
    /// values and registers, iterations that must not spin).
    fn registers_agree(&self, values: &Values) -> bool {
        for (t, p) in self.paths.iter().enumerate() {
            let needs_trace = !p.not_spin.is_empty()
                || matches!(
                    p.ending,
                    Ending::Spinning { pure: false, .. }
                        | Ending::Repeating { .. }
                        | Ending::Cut { writes: false, .. }
                );
            if !needs_trace {
                continue;
            }
            let trace = self.solver.register_trace(t, values);
            if p.not_spin.iter().any(|&r| self.is_spin(t, &trace, r)) {
                return false;
            }
            let len = p.path.steps.len();
            let witness = self.mode == Mode::Witness;
            let holds = match p.ending {
                // A spin through its values: the registers it reads first are unchanged.
                Ending::Spinning {
                    pure: false, start, ..
                } if witness => self.is_spin(t, &trace, (start, len)),
                // Item 1: the same registers at the end of A and of B.
                Ending::Repeating { b, .. } if witness => trace[b] == trace[len],
                // A cut counts only if its iteration is no spin iteration.
                Ending::Cut {
                    writes: false,
                    start,
                    ..
                } => !self.is_spin(t, &trace, (start, len)),
                _ => true,
            };
            if !holds {
                return false;
            }
        }
        true
    }

    /// The memory conditions of spin iterations and laps.
    fn memory_agrees<J: Judgement>(&self, c: &CandidateView<'_, J>) -> bool {
        let s = c.statics;
        let roles = &self.roles;
        if !roles.any() {
            return true;
        }
        // Places in `wanted`'s list: fr, locord, co (asked for whenever roles.any()).
        let fr = c.eval.rel(Wanted(0));
        // "Follows in asmo or locord": the model's locord where it has one (Vulkan),
        // else its coherence order.
        let follows = c.eval.rel(Wanted(1)).or_else(|| c.eval.rel(Wanted(2)));
        let final_read = |r: usize| {
            fr.is_some_and(|fr| !fr.row(r).iter().any(|w| s.set(StaticSet::W).contains(w)))
        };
        let source =
            |r: usize| -> Option<usize> { c.rf.pairs().find(|&(_, x)| x == r).map(|(w, _)| w) };
        let after =
            |w: usize, v: usize| c.asmo.contains(w, v) || follows.is_some_and(|f| f.contains(w, v));
        for r in s.set(StaticSet::R).iter() {
            let src = source(r);
            let loc = s.events()[r].location;
            // Spin reads: final, or from a write of another invocation's laps.
            if roles.spin[r] {
                let from_laps = src.is_some_and(|w| roles.in_laps(w));
                if !from_laps && !final_read(r) {
                    return false;
                }
            }
            if roles.b[r] {
                // Item 2: from A or B, or a final write to a location A and B never write.
                let from_laps = src.is_some_and(|w| roles.in_laps(w));
                let other_ok = final_read(r) && loc.is_some_and(|l| !roles.lap_locations[l]);
                if !from_laps && !other_ok {
                    return false;
                }
            } else if src.is_some_and(|w| roles.b[w]) {
                // Item 4: no read outside B reads a write of B.
                return false;
            }
        }
        for w in s.set(StaticSet::W).iter().filter(|&w| roles.b[w]) {
            // Item 3: no write outside A and B follows a write of B.
            if s.set(StaticSet::W)
                .iter()
                .any(|v| !roles.in_laps(v) && v != w && after(w, v))
            {
                return false;
            }
        }
        // Item 1: the values of A and its copy, and the edges between their events.
        for x in 0..s.n() {
            let Some(x2) = roles.copy[x] else { continue };
            if s.set(StaticSet::R).contains(x) && c.values.read[x] != c.values.read[x2] {
                return false;
            }
            if s.set(StaticSet::W).contains(x) && c.values.write[x] != c.values.write[x2] {
                return false;
            }
            for y in 0..s.n() {
                let Some(y2) = roles.copy[y] else { continue };
                let same = |rel: &Rel| rel.contains(x, y) == rel.contains(x2, y2);
                if !same(c.rf) || !same(c.asmo) || !follows.is_none_or(same) {
                    return false;
                }
            }
        }
        // Item 5 (spin iterations are laps B with A empty): a cbar in B meets only cbars
        // in B.
        let in_b = |e: usize| roles.b[e] || roles.spin[e];
        for (x, y) in s.rel(StaticRel::ScbarInst).pairs() {
            if x != y && in_b(x) && !in_b(y) {
                return false;
            }
        }
        true
    }

    /// The key of a candidate in the fixed order: rf sources, asmo pairs, values.
    fn key<J: Judgement>(c: &CandidateView<'_, J>) -> Vec<i64> {
        let s = c.statics;
        let mut key: Vec<i64> = (0..s.n())
            .filter(|&e| s.set(StaticSet::R).contains(e))
            .map(|e| {
                if c.rfinit.contains(e) {
                    -1
                } else {
                    c.rf.pairs()
                        .find(|&(_, x)| x == e)
                        .map_or(-2, |(w, _)| w as i64)
                }
            })
            .collect();
        for (a, b) in c.asmo.pairs() {
            key.push(a as i64);
            key.push(b as i64);
        }
        key.extend(&c.values.read);
        key.extend(&c.values.write);
        key
    }
}

impl Visitor for StuckVisitor<'_> {
    type Acc = Option<Found>;

    fn visit<J: Judgement>(&self, acc: &mut Option<Found>, c: &CandidateView<'_, J>) {
        if !c.consistent {
            return;
        }
        if self.mode == Mode::Witness && !self.memory_agrees(c) {
            return;
        }
        if !self.registers_agree(c.values) {
            return;
        }
        let key = Self::key(c);
        if acc.as_ref().is_some_and(|f| f.key <= key) {
            return;
        }
        *acc = Some(Found {
            key,
            rf: c.rf.clone(),
            rfinit: c.rfinit.clone(),
            asmo: c.asmo.clone(),
            values: c.values.clone(),
            racy: c.eval.flagged(),
            statics: Box::new(c.statics.clone()),
        });
    }

    fn merge(&self, a: Option<Found>, b: Option<Found>) -> Option<Found> {
        match (a, b) {
            (Some(x), Some(y)) => Some(if x.key <= y.key { x } else { y }),
            (x, y) => x.or(y),
        }
    }

    fn wanted(&self) -> Vec<&'static str> {
        if self.mode == Mode::Witness && self.roles.any() {
            vec!["fr", "locord", "co"]
        } else {
            Vec::new()
        }
    }

    /// The screen with the meeting's coherence core (screen.rs). Without a core it would
    /// say what it said before the search began ([`super::Runner`]'s screen), so it is
    /// not run again.
    fn may_find(&self, s: &Statics, shortcuts: &Shortcuts, asmo_pairs: &Rel) -> bool {
        if self.screen == Screen::Off {
            return true;
        }
        let Some(terms) = shortcuts.core.clone() else {
            return true;
        };
        let passed = may_find(self, Some(screen::Core::new(s, terms, asmo_pairs)));
        if !passed {
            self.rejected.store(true, Ordering::Relaxed);
        }
        passed
    }

    /// Sources that no stuck execution of this combination can have:
    /// - a read outside B reading a write of B (item 4);
    /// - a read of B reading a write outside A and B of a location A or B writes (item
    ///   2);
    /// - a read of a spin iteration or of B taking the initial value of a location that
    ///   some event writes: the initial value is fr-before every write of its location,
    ///   so the read is not final (and it is not a write of the laps).
    fn rf_allowed(&self, read: usize, source: Source) -> bool {
        if self.mode != Mode::Witness {
            return true;
        }
        let roles = &self.roles;
        let loc = self.lay.events[read].location;
        match source {
            Source::Write(w) => {
                if roles.b[w] && !roles.b[read] {
                    return false;
                }
                if roles.b[read] && !roles.in_laps(w) && loc.is_some_and(|l| roles.lap_locations[l])
                {
                    return false;
                }
                true
            }
            Source::Init => {
                let spins = roles.spin[read] || roles.b[read];
                !(spins && loc.is_some_and(|l| roles.written[l]))
            }
        }
    }
}

/// A found candidate as a captured execution, for drawing it.
pub(crate) fn captured(f: Found) -> crate::capture::Captured {
    crate::capture::Captured {
        statics: *f.statics,
        rf: f.rf,
        rfinit: f.rfinit,
        asmo: f.asmo,
        values: f.values,
        consistent: true,
        racy: f.racy,
        states: Vec::new(),
        key: f.key,
    }
}

/// Can the search of the combination of `visitor` find a candidate the visitor counts,
/// on a barrier meeting whose coherence core is `core`? `false` only when the screen
/// proves it cannot ([`screen::may_have_values`]).
pub(crate) fn may_find(visitor: &StuckVisitor<'_>, core: Option<screen::Core<'_>>) -> bool {
    let rf_allowed = |e: usize, s: Source| visitor.rf_allowed(e, s);
    screen::may_have_values(&screen::Combination {
        program: visitor.program,
        paths: visitor.paths.iter().map(|p| &p.path).collect(),
        lay: visitor.lay,
        universe: visitor.solver.universe(),
        roles: (visitor.mode == Mode::Witness).then_some(&visitor.roles),
        rf_allowed: &rf_allowed,
        core,
        probe_values: true,
    })
}
