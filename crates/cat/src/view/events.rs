//! The view's events for one path combination, and the base values on them.
//!
//! The program's events keep their indices (an RMW's event becomes its read half); then
//! come one initial write per location accessed, then one write half per RMW. A program
//! relation is lifted to the view by relating every view event of each of its events
//! (both halves of an RMW: they are one instruction, in one thread, at one location);
//! the few relations where the halves differ are built by hand (`id`, `po`, `amo`, the
//! dependencies, which start at reads).

use super::{dialect_name, entry, ViewValue};
use crate::base::{BaseName, Kind, Value};
use vkherd_model::{BaseValue, EventSet, Flags, Rel, StaticRel, Statics};

/// Where a view event comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// A program event (for an RMW: its read half).
    Event(usize),
    /// The write half of the RMW event.
    WriteHalf(usize),
    /// The initial write of the location.
    Init(usize),
}

/// The view of one path combination.
#[derive(Debug, Clone)]
pub struct View {
    /// The program's events.
    n: usize,
    origin: Vec<Origin>,
    /// Each program event's write half, if it is an RMW.
    write_half: Vec<Option<usize>>,
    /// Each location's initial write, if an event accesses it.
    init: Vec<Option<usize>>,
    /// The flags of each view event.
    flags: Vec<Flags>,
    /// The location of each view event.
    loc: Vec<Option<usize>>,
}

impl View {
    pub fn new(s: &Statics) -> View {
        let n = s.n();
        let events = s.events();
        let rw = Flags::R | Flags::W;
        let mut origin: Vec<Origin> = (0..n).map(Origin::Event).collect();
        let locations = events
            .iter()
            .filter_map(|e| e.location)
            .max()
            .map_or(0, |l| l + 1);
        let mut init = vec![None; locations];
        for (l, slot) in init.iter_mut().enumerate() {
            if events.iter().any(|e| e.location == Some(l)) {
                *slot = Some(origin.len());
                origin.push(Origin::Init(l));
            }
        }
        let mut write_half = vec![None; n];
        for (e, ev) in events.iter().enumerate() {
            if ev.flags.has(rw) {
                write_half[e] = Some(origin.len());
                origin.push(Origin::WriteHalf(e));
            }
        }
        let dat3m = &s.dialect().dat3m;
        let flags = origin
            .iter()
            .map(|o| match *o {
                Origin::Event(e) if write_half[e].is_some() => {
                    Flags(events[e].flags.0 & !(Flags::W.0 | dat3m.write_half.0))
                }
                Origin::Event(e) => events[e].flags,
                Origin::WriteHalf(e) => {
                    Flags(events[e].flags.0 & !(Flags::R.0 | dat3m.read_half.0))
                }
                Origin::Init(l) => {
                    let inherited = (events.iter())
                        .filter(|e| e.location == Some(l))
                        .fold(0, |acc, e| acc | e.flags.0);
                    Flags(Flags::W.0 | (inherited & dat3m.init_flags.0))
                }
            })
            .collect();
        let loc = origin
            .iter()
            .map(|o| match *o {
                Origin::Event(e) | Origin::WriteHalf(e) => events[e].location,
                Origin::Init(l) => Some(l),
            })
            .collect();
        View {
            n,
            origin,
            write_half,
            init,
            flags,
            loc,
        }
    }

    /// The number of view events.
    pub fn len(&self) -> usize {
        self.origin.len()
    }

    /// Never: a view has the program's events at least (and a program may have none).
    pub fn is_empty(&self) -> bool {
        self.origin.is_empty()
    }

    /// Where view event `v` comes from.
    pub fn origin(&self, v: usize) -> Origin {
        self.origin[v]
    }

    /// The view events of program event `e`: itself, and its write half.
    pub fn views(&self, e: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::once(e).chain(self.write_half[e])
    }

    /// The view event that writes what program write `w` writes.
    pub fn writer(&self, w: usize) -> usize {
        self.write_half[w].unwrap_or(w)
    }

    /// Program relation `r` on the view: every view event of each side.
    fn lift(&self, r: &Rel) -> Rel {
        let mut out = Rel::empty(self.len());
        for (a, b) in r.pairs() {
            for va in self.views(a) {
                for vb in self.views(b) {
                    out.insert(va, vb);
                }
            }
        }
        out
    }

    /// The initial write of location `l`, if an event accesses it.
    pub fn init(&self, l: usize) -> Option<usize> {
        self.init.get(l).copied().flatten()
    }

    fn inits(&self) -> impl Iterator<Item = usize> + '_ {
        self.init.iter().flatten().copied()
    }

    fn set_of(&self, keep: impl Fn(usize) -> bool) -> EventSet {
        EventSet::from_iter(self.len(), (0..self.len()).filter(|&v| keep(v)))
    }

    /// The view events with every flag of `mask`.
    fn flag_set(&self, mask: Flags) -> EventSet {
        self.set_of(|v| self.flags[v].has(mask))
    }

    /// `amo`: from each RMW's read half to its write half.
    fn amo(&self) -> Rel {
        let pairs = (0..self.n).filter_map(|e| self.write_half[e].map(|h| (e, h)));
        Rel::from_pairs(self.len(), pairs)
    }

    /// `r` lifted, with each initial write related to itself.
    fn lift_with_inits(&self, r: &Rel) -> Rel {
        let mut out = self.lift(r);
        for i in self.inits() {
            out.insert(i, i);
        }
        out
    }

    /// Same location: `sloc` lifted, and each initial write with its location's events.
    fn same_loc(&self, s: &Statics) -> Rel {
        let mut out = self.lift(s.rel(StaticRel::Sloc));
        for v in 0..self.len() {
            if let Some(i) = self.loc[v].and_then(|l| self.init[l]) {
                out.insert(i, v);
                out.insert(v, i);
            }
        }
        out
    }

    /// The value of static base `b` on the view.
    pub fn static_value(&self, b: BaseName, s: &Statics) -> Value {
        let len = self.len();
        let set = |mask: Flags| Value::Set(self.flag_set(mask));
        match b {
            BaseName::Ev => Value::Set(EventSet::full(len)),
            BaseName::R => set(Flags::R),
            BaseName::W => set(Flags::W),
            BaseName::F => set(Flags::F),
            BaseName::A => set(Flags::A),
            BaseName::Acq => set(Flags::ACQ),
            BaseName::Rel => set(Flags::REL),
            BaseName::Cbar => set(Flags::CBAR),
            BaseName::Id => Value::Rel(Rel::identity(len)),
            BaseName::Sthd => Value::Rel(self.lift_with_inits(s.rel(StaticRel::Sthd))),
            BaseName::Po => {
                let mut po = self.lift(s.rel(StaticRel::Po));
                po.union_with(&self.amo());
                Value::Rel(po)
            }
            BaseName::MmraCompat => {
                // An initial write has no MMRA tags: compatible with every event.
                let mut r = self.lift(s.rel(StaticRel::MmraCompat));
                for i in self.inits() {
                    for v in 0..len {
                        r.insert(i, v);
                        r.insert(v, i);
                    }
                }
                Value::Rel(r)
            }
            BaseName::ScbarInst => Value::Rel(self.lift(s.rel(StaticRel::ScbarInst))),
            BaseName::Sloc => Value::Rel(self.same_loc(s)),
            BaseName::Sref => Value::Rel(self.lift_with_inits(s.rel(StaticRel::Sref))),
            BaseName::Asmo | BaseName::Rf | BaseName::RfInit => {
                unreachable!("`{}` is not static", b.name())
            }
            BaseName::Dialect(_) => match s.dialect().base(b.name()) {
                Some(d) => self.dialect_value(d.value, s),
                None => empty(b.kind(), len),
            },
            BaseName::View(_) => self.view_value(b, s),
        }
    }

    /// A base of the view only.
    fn view_value(&self, b: BaseName, s: &Statics) -> Value {
        let len = self.len();
        let e = entry(b).expect("a view base");
        match e.value {
            ViewValue::Init => Value::Set(EventSet::from_iter(len, self.inits())),
            ViewValue::Co => unreachable!("`co` is per asmo"),
            ViewValue::Memory => {
                Value::Set(self.set_of(|v| self.flags[v].any(Flags::R | Flags::W)))
            }
            ViewValue::Loc => Value::Rel(self.same_loc(s)),
            ViewValue::Vloc => self.static_value(BaseName::Sref, s),
            ViewValue::Int => self.static_value(BaseName::Sthd, s),
            ViewValue::Ext => {
                let int = self.lift_with_inits(s.rel(StaticRel::Sthd));
                Value::Rel(Rel::full(len).minus(&int))
            }
            ViewValue::Amo => Value::Rel(self.amo()),
            ViewValue::Nothing => Value::Rel(Rel::empty(len)),
            ViewValue::Rmw => Value::Set(self.set_of(|v| match self.origin[v] {
                Origin::Event(e) | Origin::WriteHalf(e) => self.write_half[e].is_some(),
                Origin::Init(_) => false,
            })),
            ViewValue::Atomic => Value::Set(self.flag_set(Flags::A)),
            ViewValue::NoEvents => Value::Set(EventSet::new(len)),
            ViewValue::Syncbar => self.static_value(BaseName::ScbarInst, s),
            ViewValue::Dialect => match dialect_name(s.dialect(), b.name()) {
                Some(d) => self.dialect_value(d.value, s),
                None => empty(b.kind(), len),
            },
        }
    }

    /// A dialect's base, as its [`BaseValue`] says, on the view.
    fn dialect_value(&self, v: BaseValue, s: &Statics) -> Value {
        match v {
            BaseValue::Set(mask) => Value::Set(self.flag_set(mask)),
            BaseValue::AnyOf(masks) => {
                Value::Set(self.set_of(|x| masks.iter().any(|&m| self.flags[x].has(m))))
            }
            BaseValue::SameLevel(level) => Value::Rel(self.lift(s.same_level(level))),
            BaseValue::Ssw => Value::Rel(self.lift(s.rel(StaticRel::Ssw))),
            // A dependency starts at a read: an RMW's read half.
            BaseValue::Dep(kind) => Value::Rel(
                self.lift(s.dependency(kind))
                    .restrict_domain(&self.flag_set(Flags::R)),
            ),
            BaseValue::InitWithout(mask) => {
                let events = s.events();
                let without =
                    |l: usize| !(events.iter()).any(|e| e.location == Some(l) && e.flags.has(mask));
                Value::Set(self.set_of(|x| match self.origin[x] {
                    Origin::Init(l) => without(l),
                    _ => false,
                }))
            }
        }
    }

    /// The view's `rf`: each read from the view event that writes its source (an RMW's
    /// write half), a read of the initial value from its location's initial write.
    /// Monotone: more pairs of `rf` and reads in `rfinit` give more pairs.
    pub fn rf(&self, rf: &Rel, rfinit: &EventSet) -> Rel {
        let mut out = Rel::empty(self.len());
        for (w, r) in rf.pairs() {
            out.insert(self.writer(w), r);
        }
        for r in rfinit.iter() {
            if let Some(i) = self.loc[r].and_then(|l| self.init[l]) {
                out.insert(i, r);
            }
        }
        out
    }

    /// `rfinit` on the view's events (the reads keep their indices).
    pub fn rfinit(&self, rfinit: &EventSet) -> EventSet {
        EventSet::from_iter(self.len(), rfinit.iter())
    }

    /// The view's `co` for the enumerated order `asmo`: each location's initial write
    /// before its other writes, then `asmo` on the writers. Monotone in `asmo`, and
    /// one-to-one on its pairs, so that bounds on `asmo` map to bounds on `co`.
    pub fn co(&self, asmo: &Rel) -> Rel {
        let mut out = Rel::empty(self.len());
        for (a, b) in asmo.pairs() {
            out.insert(self.writer(a), self.writer(b));
        }
        for v in 0..self.len() {
            let is_write =
                self.flags[v].has(Flags::W) && !matches!(self.origin[v], Origin::Init(_));
            if let (true, Some(i)) = (is_write, self.loc[v].and_then(|l| self.init[l])) {
                out.insert(i, v);
            }
        }
        out
    }

    /// A view relation on the program's events: pairs with an initial write dropped, an
    /// RMW's halves read as the RMW, pairs within one event dropped (so `co` gives back
    /// the enumerated order).
    pub fn project(&self, r: &Rel) -> Rel {
        let event = |v: usize| match self.origin[v] {
            Origin::Event(e) | Origin::WriteHalf(e) => Some(e),
            Origin::Init(_) => None,
        };
        let pairs = r.pairs().filter_map(|(a, b)| match (event(a), event(b)) {
            (Some(x), Some(y)) if x != y => Some((x, y)),
            _ => None,
        });
        Rel::from_pairs(self.n, pairs)
    }
}

fn empty(kind: Kind, n: usize) -> Value {
    match kind {
        Kind::Set => Value::Set(EventSet::new(n)),
        Kind::Rel => Value::Rel(Rel::empty(n)),
    }
}
