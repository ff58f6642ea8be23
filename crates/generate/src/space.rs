//! The bounded space of programs `distinguish` searches (docs/generate.md "The search
//! space"), enumerated size by size, each program once up to renaming.
//!
//! A program of the space has at most `threads` invocations of at most `events` events
//! each, on at most `locations` locations; each event is an access (a read, a write or
//! an RMW), a fence or a control barrier, annotated from the alphabet; invocations sit at the placements of
//! the alphabet. Each write writes a value of its own (1, 2, ... per location): distinct
//! values lose nothing, since a state of a program with repeated values is the image of
//! a state of the same program with distinct ones, so two models that agree on the
//! distinct program agree on every relabelling of it.
//!
//! The space leaves out programs that cannot tell anything apart in a model that reads
//! locations only through their accesses (every model whose base relations are those of
//! docs/models.md and whose checks only relate accesses to one location or events
//! linked through such relations); these rules define the space, and the counts
//! `distinguish` prints are of programs in it:
//! - a location is written at least once and accessed at least twice;
//! - with two or more invocations, every invocation accesses a location another one
//!   accesses, and the invocations are connected through shared locations;
//! - a fence is neither the first nor the last event of its invocation;
//! - the k-th control barrier of an invocation meets the k-th barrier of another
//!   invocation of its workgroup, annotated alike ([`barriers_meet`]).
//!
//! Symmetry: a program is examined only if it is in canonical form ([`canon`]): its own
//! order of invocations, locations by first appearance and values in order give its
//! key. Every class of programs equal up to renaming has exactly one such member among
//! those enumerated (locations are enumerated as restricted growth strings, values are
//! assigned in order, placements are enumerated in normal form), so each class is
//! examined once.

use super::alphabet::Alphabet;
use super::ann::{Access, AccessSpec, Fence, FenceKind, FenceSpec, Kind, Level, Order};
use super::canon;
use super::place;
use super::test::{Op, Place, Test, Thread};

/// The kinds of events a program may have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum EventKind {
    Read,
    Write,
    Rmw,
    Fence,
    /// A control barrier: the k-th barrier of an invocation meets the k-th barriers of
    /// the other invocations of its workgroup.
    Cbar,
}

impl EventKind {
    pub const ALL: [EventKind; 5] = [
        EventKind::Read,
        EventKind::Write,
        EventKind::Rmw,
        EventKind::Fence,
        EventKind::Cbar,
    ];

    pub fn word(self) -> &'static str {
        match self {
            EventKind::Read => "r",
            EventKind::Write => "w",
            EventKind::Rmw => "rmw",
            EventKind::Fence => "fence",
            EventKind::Cbar => "cbar",
        }
    }
}

/// The bounds of the space.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// Invocations at most.
    pub threads: usize,
    /// Events per invocation at most.
    pub events: usize,
    /// Events in all at most.
    pub size: usize,
    /// Locations at most.
    pub locations: usize,
}

/// One event choice: an access of some kind and annotation to some location (chosen
/// separately), or a fence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    Access(Kind, Access),
    Fence(Fence),
}

/// The space: bounds, and every event an invocation may have.
#[derive(Debug, Clone)]
pub struct Space {
    pub bounds: Bounds,
    pub alphabet: Alphabet,
    pub kinds: Vec<EventKind>,
    pub choices: Vec<Choice>,
    placements: Vec<Vec<Vec<Place>>>,
}

impl Space {
    pub fn new(bounds: Bounds, alphabet: Alphabet, kinds: &[EventKind]) -> Space {
        let d = alphabet.dialect;
        let mut choices = Vec::new();
        for &k in kinds {
            let kind = match k {
                EventKind::Read => Kind::R,
                EventKind::Write => Kind::W,
                EventKind::Rmw => Kind::Rmw,
                EventKind::Cbar => {
                    choices.extend(barrier_choices(&alphabet).into_iter().map(Choice::Fence));
                    continue;
                }
                EventKind::Fence => {
                    for order in alphabet.orders(None) {
                        for (av, vis) in alphabet.sem_flags(Some(order)) {
                            for &scope in &alphabet.scopes {
                                let spec = FenceSpec {
                                    kind: Some(FenceKind::Membar),
                                    order: Some(Some(order)),
                                    scope: Some(scope),
                                    semav: Some(av),
                                    semvis: Some(vis),
                                    semsc: None,
                                };
                                if let Ok(f) = Fence::resolve(&spec, FenceKind::Membar, 1, d) {
                                    choices.push(Choice::Fence(f));
                                }
                            }
                        }
                    }
                    continue;
                }
            };
            let mut accesses = Vec::new();
            for mode in alphabet.modes(kind) {
                let atomic = mode == super::ann::Mode::Atomic;
                let orders = if atomic {
                    alphabet.orders(Some(kind))
                } else {
                    vec![Order::Relaxed]
                };
                for order in orders {
                    for (av, vis) in alphabet.sem_flags(atomic.then_some(order)) {
                        let scoped =
                            matches!(mode, super::ann::Mode::Atomic | super::ann::Mode::AvVis);
                        let scopes: Vec<Option<super::ann::Scope>> = if scoped {
                            alphabet.scopes.iter().map(|&s| Some(s)).collect()
                        } else {
                            vec![None]
                        };
                        for scope in scopes {
                            let spec = AccessSpec {
                                mode: Some(mode),
                                order: atomic.then_some(order),
                                scope,
                                semav: Some(av),
                                semvis: Some(vis),
                                ..AccessSpec::default()
                            };
                            if let Ok(a) = Access::resolve(&spec, kind, 0, d) {
                                accesses.push(a);
                            }
                        }
                    }
                }
            }
            accesses.sort();
            accesses.dedup();
            choices.extend(accesses.into_iter().map(|a| Choice::Access(kind, a)));
        }
        let placements = (0..=bounds.threads)
            .map(|t| place::all_placements(t, &alphabet.levels))
            .collect();
        Space {
            bounds,
            alphabet,
            kinds: kinds.to_vec(),
            choices,
            placements,
        }
    }

    /// The sizes to search, in order: (events, invocations), fewest events first, then
    /// fewest invocations.
    pub fn sizes(&self) -> Vec<(usize, usize)> {
        let b = self.bounds;
        let mut out = Vec::new();
        for e in 1..=b.size.min(b.threads * b.events) {
            for t in 1..=b.threads.min(e) {
                if e <= t * b.events {
                    out.push((e, t));
                }
            }
        }
        out
    }

    /// The ways to give `t` invocations `e` events in all (each 1..=events).
    fn splits(&self, e: usize, t: usize) -> Vec<Vec<usize>> {
        let max = self.bounds.events;
        let mut out = Vec::new();
        let mut cur = Vec::new();
        fn go(left: usize, t: usize, max: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
            if cur.len() == t {
                if left == 0 {
                    out.push(cur.clone());
                }
                return;
            }
            for k in 1..=max.min(left) {
                cur.push(k);
                go(left - k, t, max, cur, out);
                cur.pop();
            }
        }
        go(e, t, max, &mut cur, &mut out);
        out
    }

    /// The work units of a size, in a fixed order: (split, placement, first choice).
    /// Each unit's programs are enumerated independently ([`Space::programs`]).
    pub fn units(&self, e: usize, t: usize) -> Vec<Unit> {
        let mut out = Vec::new();
        for split in self.splits(e, t) {
            for (p, _) in self.placements[t].iter().enumerate() {
                for first in 0..self.choices.len() {
                    out.push(Unit {
                        split: split.clone(),
                        placement: p,
                        first,
                    });
                }
            }
        }
        out
    }

    /// The programs of a unit in the space and in canonical form, in a fixed order, and
    /// how many were enumerated before the rules and symmetry left them out.
    pub fn programs(&self, unit: &Unit) -> (Vec<Test>, u64) {
        self.programs_with(unit, true)
    }

    /// [`Space::programs`], or with `canonical_only` false every program of the unit in
    /// the space, whatever its form (to check the symmetry reduction against).
    pub fn programs_with(&self, unit: &Unit, canonical_only: bool) -> (Vec<Test>, u64) {
        let mut out = Vec::new();
        let raw = self.each_program(unit, canonical_only, &mut |t| {
            out.extend(t);
            true
        });
        (out, raw)
    }

    /// Calls `visit` on each program of the unit in the space (in canonical form if
    /// `canonical_only`), in a fixed order, until it returns false; returns how many
    /// programs were enumerated. Every [`POLL`] programs left out, `visit` is also
    /// called with `None`, so that a limit can stop a unit whose programs the rules
    /// mostly leave out.
    pub fn each_program(
        &self,
        unit: &Unit,
        canonical_only: bool,
        visit: &mut dyn FnMut(Option<Test>) -> bool,
    ) -> u64 {
        let mut fill = Fill {
            unit,
            slots: unit.split.iter().sum(),
            canonical_only,
            visit,
            raw: 0,
            until_poll: POLL,
            stopped: false,
        };
        let mut picks = Vec::with_capacity(fill.slots);
        self.fill(&mut fill, &mut picks, 0);
        fill.raw
    }

    /// Chooses slot after slot (event choice, location as a restricted growth string).
    fn fill(&self, f: &mut Fill<'_>, picks: &mut Vec<(usize, usize)>, locs_used: usize) {
        if f.stopped {
            return;
        }
        if picks.len() == f.slots {
            f.raw += 1;
            if let Some(test) = self.program(f.unit, picks, f.canonical_only) {
                f.stopped = !(f.visit)(Some(test));
            } else {
                f.until_poll -= 1;
                if f.until_poll == 0 {
                    f.until_poll = POLL;
                    f.stopped = !(f.visit)(None);
                }
            }
            return;
        }
        let range = if picks.is_empty() {
            f.unit.first..f.unit.first + 1
        } else {
            0..self.choices.len()
        };
        for c in range {
            if let Choice::Fence(fence) = self.choices[c] {
                // A fence is neither first nor last in its invocation (a barrier may be:
                // it orders the accesses of the invocations it meets).
                if fence.kind == FenceKind::Membar && at_an_end(&f.unit.split, picks.len()) {
                    continue;
                }
                picks.push((c, usize::MAX));
                self.fill(f, picks, locs_used);
                picks.pop();
                continue;
            }
            let max_loc = (locs_used + 1).min(self.bounds.locations);
            for loc in 0..max_loc {
                picks.push((c, loc));
                self.fill(f, picks, locs_used.max(loc + 1));
                picks.pop();
            }
        }
    }

    /// The program of a full choice, if it is in the space and canonical.
    fn program(&self, unit: &Unit, picks: &[(usize, usize)], canonical_only: bool) -> Option<Test> {
        let nlocs = picks
            .iter()
            .filter(|(_, l)| *l != usize::MAX)
            .map(|(_, l)| l + 1)
            .max()?;
        let mut writes = vec![0i64; nlocs];
        let mut accesses = vec![0usize; nlocs];
        let mut threads_of: Vec<u64> = vec![0; nlocs];
        let places = &self.placements[unit.split.len()][unit.placement];
        let mut threads = Vec::with_capacity(unit.split.len());
        let mut slot = 0;
        for (t, &k) in unit.split.iter().enumerate() {
            let mut ops = Vec::with_capacity(k);
            let mut reg = 0;
            let mut barriers = 0;
            for &(c, loc) in &picks[slot..slot + k] {
                match self.choices[c] {
                    Choice::Fence(fence) if fence.kind == FenceKind::Cbar => {
                        ops.push(Op::Fence {
                            fence,
                            instance: Some(barriers),
                        });
                        barriers += 1;
                    }
                    Choice::Fence(fence) => ops.push(Op::Fence {
                        fence,
                        instance: None,
                    }),
                    Choice::Access(kind, access) => {
                        accesses[loc] += 1;
                        threads_of[loc] |= 1 << t;
                        let value = if kind.writes() {
                            writes[loc] += 1;
                            writes[loc]
                        } else {
                            0
                        };
                        let r = kind.reads().then(|| {
                            reg += 1;
                            reg - 1
                        });
                        ops.push(Op::Access {
                            kind,
                            loc,
                            reg: r,
                            value,
                            access,
                            dep: None,
                        });
                    }
                }
            }
            slot += k;
            threads.push(Thread {
                place: places[t],
                ops,
            });
        }
        if (0..nlocs).any(|l| writes[l] == 0 || accesses[l] < 2) {
            return None;
        }
        let t = unit.split.len();
        if t > 1 && !communicates(&threads_of, t) {
            return None;
        }
        let mut test = Test {
            dialect: self.alphabet.dialect,
            name: "candidate".to_string(),
            description: String::new(),
            threads,
            storage: vec![0; nlocs],
            exists: Vec::new(),
            observe: Vec::new(),
        };
        if !barriers_meet(&test) {
            return None;
        }
        if canonical_only && !canon::is_canonical(&test) {
            return None;
        }
        test.observe = test.full_state();
        Some(test)
    }
}

/// How often (in programs left out) [`Space::each_program`] polls its caller.
pub const POLL: u64 = 4096;

/// The state of one enumeration.
struct Fill<'a> {
    unit: &'a Unit,
    slots: usize,
    canonical_only: bool,
    visit: &'a mut dyn FnMut(Option<Test>) -> bool,
    raw: u64,
    /// Programs left out before the next poll.
    until_poll: u64,
    stopped: bool,
}

/// Is slot `pos` the first or last event of its invocation?
fn at_an_end(split: &[usize], pos: usize) -> bool {
    let mut start = 0;
    for &k in split {
        if pos < start + k {
            return pos == start || pos == start + k - 1;
        }
        start += k;
    }
    false
}

/// The barriers of the search space: each order the alphabet gives a fence (with its
/// `semav`/`semvis` choices) and no semantics (`nosem`), at each scope of the alphabet,
/// as the dialect allows them ([`Fence::resolve`] asks it).
fn barrier_choices(alphabet: &Alphabet) -> Vec<Fence> {
    let mut orders: Vec<Option<Order>> = vec![None];
    orders.extend(alphabet.orders(None).into_iter().map(Some));
    let mut out = Vec::new();
    for order in orders {
        let flags = match order {
            Some(_) => alphabet.sem_flags(order),
            None => vec![(false, false)],
        };
        for (av, vis) in flags {
            for &scope in &alphabet.scopes {
                let spec = FenceSpec {
                    kind: Some(FenceKind::Cbar),
                    order: Some(order),
                    scope: Some(scope),
                    semav: Some(av),
                    semvis: Some(vis),
                    semsc: None,
                };
                if let Ok(f) = Fence::resolve(&spec, FenceKind::Cbar, 1, alphabet.dialect) {
                    out.push(f);
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The space's rules on control barriers, and the dialect's own
/// ([`super::dialects::GenDialect::check`]): the k-th barrier of an invocation (its
/// instance k) meets the k-th barrier of at least one other invocation of its workgroup,
/// and barriers that meet are annotated alike (the litmus formats refuse barriers of one
/// instance with different scope or semantics). A barrier that meets no other is a fence
/// the `fence` kind stands for; numbering barriers by their rank in their invocation
/// leaves out programs in which an invocation skips an instance another one meets.
fn barriers_meet(test: &Test) -> bool {
    let barrier = |t: &Thread, k: u32| {
        t.ops.iter().find_map(|op| match *op {
            Op::Fence {
                fence,
                instance: Some(i),
            } if i == k => Some(fence),
            _ => None,
        })
    };
    let mut any = false;
    for (a, ta) in test.threads.iter().enumerate() {
        for op in &ta.ops {
            let Op::Fence {
                fence,
                instance: Some(k),
            } = *op
            else {
                continue;
            };
            any = true;
            let mut met = false;
            for (b, tb) in test.threads.iter().enumerate() {
                if b == a || place::level(ta.place, tb.place) > Level::Wg {
                    continue;
                }
                match barrier(tb, k) {
                    Some(g) if g != fence => return false,
                    Some(_) => met = true,
                    None => {}
                }
            }
            if !met {
                return false;
            }
        }
    }
    !any || test.dialect.check(test).is_ok()
}

/// Every invocation shares a location with another, and the invocations are connected
/// through shared locations (`threads_of[l]`: the set of invocations accessing l).
fn communicates(threads_of: &[u64], t: usize) -> bool {
    let shared: Vec<u64> = threads_of
        .iter()
        .copied()
        .filter(|s| s.count_ones() > 1)
        .collect();
    let mut reached: u64 = 1;
    loop {
        let next = shared
            .iter()
            .filter(|&&s| s & reached != 0)
            .fold(reached, |acc, &s| acc | s);
        if next == reached {
            break;
        }
        reached = next;
    }
    reached.count_ones() as usize == t
}

/// A part of one size's enumeration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    /// Events of each invocation.
    pub split: Vec<usize>,
    /// Index of the placement among the size's placements.
    pub placement: usize,
    /// The choice of the first event.
    pub first: usize,
}

/// The level words of placements, for the summary line.
pub fn level_words(levels: &[Level], dialect: &dyn super::dialects::GenDialect) -> String {
    levels
        .iter()
        .map(|l| l.word(dialect))
        .collect::<Vec<_>>()
        .join(",")
}
