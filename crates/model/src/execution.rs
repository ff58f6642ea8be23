//! The static part of an execution: its events, the Alloy event sets, and every relation
//! that does not depend on `rf` or `asmo` (computed once per path combination).
//!
//! Each field is named after the Alloy set or relation it holds (lower-cased).

use crate::dialect::Dialect;
use crate::flags::Flags;
use crate::program::{Instruction, LocId, MmraTags, Program, RefId};
use crate::rel::Rel;
use crate::set::EventSet;
use crate::variant::{ModelOptions, Variant};

/// One event of an execution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    pub thread: usize,
    /// Index of the instruction in the thread's code that made it.
    pub instr: usize,
    pub flags: Flags,
    pub reference: Option<RefId>,
    pub location: Option<LocId>,
}

/// The storage classes the model distinguishes (`sc0`..`sc3`).
pub const CLASSES: usize = 4;

/// Event sets and static relations of one path combination.
#[derive(Debug, Clone)]
pub struct Statics {
    /// The dialect of the program: what its events' flags and scope levels mean.
    pub(crate) dialect: &'static Dialect,
    pub(crate) n: usize,
    pub(crate) events: Vec<Event>,
    // --- sets (sig Exec) ---
    pub(crate) ev: EventSet,
    pub(crate) r: EventSet,
    pub(crate) w: EventSet,
    pub(crate) f: EventSet,
    pub(crate) a: EventSet,
    pub(crate) acq: EventSet,
    pub(crate) rel: EventSet,
    pub(crate) sc: [EventSet; CLASSES],
    pub(crate) semsc: [EventSet; CLASSES],
    pub(crate) scopesg: EventSet,
    pub(crate) scopewg: EventSet,
    pub(crate) scopeqf: EventSet,
    pub(crate) scopedev: EventSet,
    pub(crate) cbar: EventSet,
    pub(crate) av: EventSet,
    pub(crate) vis: EventSet,
    pub(crate) semav: EventSet,
    pub(crate) semvis: EventSet,
    pub(crate) avdevice: EventSet,
    pub(crate) visdevice: EventSet,
    pub(crate) nonpriv: EventSet,
    pub(crate) priv_: EventSet,
    /// `AVSHADER = (AV+SEMAV) & SCOPEDEV` and friends.
    pub(crate) avshader: EventSet,
    pub(crate) visshader: EventSet,
    pub(crate) avqf: EventSet,
    pub(crate) visqf: EventSet,
    pub(crate) avwg: EventSet,
    pub(crate) viswg: EventSet,
    pub(crate) avsg: EventSet,
    pub(crate) vissg: EventSet,
    /// The storage classes used by some access or semantics (bit i = class i).
    pub(crate) classes_in_use: u8,
    // --- static relations ---
    pub(crate) sthd: Rel,
    pub(crate) po: Rel,
    /// "Same instance" of each scope level of the dialect, innermost first (Vulkan:
    /// `ssg`, `swg`, `sqf`).
    pub(crate) same_level: Vec<Rel>,
    pub(crate) ssw: Rel,
    /// `^ssw`, used by locord.
    pub(crate) ssw_plus: Rel,
    pub(crate) scbarinst: Rel,
    pub(crate) sloc: Rel,
    pub(crate) sref: Rel,
    pub(crate) chains: Rel,
    pub(crate) inscope: Rel,
    pub(crate) mutordatom: Rel,
    pub(crate) avvisinc: Rel,
    pub(crate) posctosem: Rel,
    pub(crate) posemtosc: Rel,
    /// `rc[po]`
    pub(crate) po_opt: Rel,
    /// `mmra-compat`: the pairs of events whose MMRA tag sets are compatible (seed 003;
    /// full when no event has tags).
    pub(crate) mmra_compat: Rel,
    /// The program order happens-before is built from: `po`, or `po & mmra-compat` in
    /// the MMRA variant (seed 003: "any program order between [incompatible
    /// instructions is] not in happens-before").
    pub(crate) po_hb: Rel,
    /// The MMRA variant is on ([`ModelOptions::mmra`]).
    pub(crate) mmra: bool,
    pub(crate) iden: Rel,
    /// `addr`, `data` and `ctrl` (the dialect's [`crate::BaseValue::Dep`] bases), empty
    /// unless given by [`Statics::with_dependencies`].
    pub(crate) addr: Rel,
    pub(crate) data: Rel,
    pub(crate) ctrl: Rel,
}

/// The static event sets, typed: what [`Statics::set`] looks up. The first ones are the
/// base sets of cat models (docs/models.md); the rest are the hand-written engine's terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum StaticSet {
    Ev,
    R,
    W,
    F,
    A,
    Acq,
    Rel,
    Sc0,
    Sc1,
    Sc2,
    Sc3,
    SemSc0,
    SemSc1,
    SemSc2,
    SemSc3,
    ScopeSg,
    ScopeWg,
    ScopeQf,
    ScopeDev,
    Cbar,
    Av,
    Vis,
    SemAv,
    SemVis,
    AvDevice,
    VisDevice,
    NonPriv,
    /// `PRIV = R+W-NONPRIV`
    Priv,
    /// `AVSHADER = (AV+SEMAV) & SCOPEDEV`
    AvShader,
    VisShader,
    AvQf,
    VisQf,
    AvWg,
    VisWg,
    AvSg,
    VisSg,
}

/// The static relations, typed: what [`Statics::rel`] looks up. The first ones are the
/// base relations of cat models (docs/models.md); the rest are the hand-written engine's
/// terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum StaticRel {
    /// The identity on events (Alloy `iden`).
    Id,
    Sthd,
    Po,
    MmraCompat,
    Ssg,
    Swg,
    Sqf,
    Ssw,
    ScbarInst,
    Sloc,
    Sref,
    /// `^ssw`
    SswPlus,
    Chains,
    Inscope,
    MutOrdAtom,
    AvVisInc,
    PoScToSem,
    PoSemToSc,
    /// `rc[po]`
    PoOpt,
    /// The program order happens-before is built from: `po`, or `po & mmra-compat` in the
    /// MMRA variant.
    PoHb,
}

impl Statics {
    /// The number of events.
    #[inline]
    pub fn n(&self) -> usize {
        self.n
    }

    /// The events, in program order within each thread.
    #[inline]
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The storage classes used by some access or semantics (bit i = class i).
    #[inline]
    pub fn classes_in_use(&self) -> u8 {
        self.classes_in_use
    }

    /// The program's dialect.
    #[inline]
    pub fn dialect(&self) -> &'static Dialect {
        self.dialect
    }

    /// The events with every flag of `mask` (a dialect's base set, [`crate::BaseValue`]).
    pub fn flag_set(&self, mask: Flags) -> EventSet {
        set_of(&self.events, self.n, |e| e.flags.has(mask))
    }

    /// The same statics with the syntactic dependencies of the path combination (the
    /// enumerator computes them for models that read them; vkherd_enumerate's
    /// `Engine::reads_dependencies`).
    pub fn with_dependencies(mut self, addr: Rel, data: Rel, ctrl: Rel) -> Statics {
        self.addr = addr;
        self.data = data;
        self.ctrl = ctrl;
        self
    }

    /// A syntactic dependency relation ([`crate::DepKind`]).
    pub fn dependency(&self, kind: crate::DepKind) -> &Rel {
        match kind {
            crate::DepKind::Data => &self.data,
            crate::DepKind::Ctrl => &self.ctrl,
            crate::DepKind::Addr => &self.addr,
        }
    }

    /// "Same instance" of the dialect's scope level `level` (0 innermost): the pairs of
    /// events whose invocations share it.
    #[inline]
    pub fn same_level(&self, level: usize) -> &Rel {
        &self.same_level[level]
    }

    /// The static event set `s`.
    #[inline]
    pub fn set(&self, s: StaticSet) -> &EventSet {
        match s {
            StaticSet::Ev => &self.ev,
            StaticSet::R => &self.r,
            StaticSet::W => &self.w,
            StaticSet::F => &self.f,
            StaticSet::A => &self.a,
            StaticSet::Acq => &self.acq,
            StaticSet::Rel => &self.rel,
            StaticSet::Sc0 => &self.sc[0],
            StaticSet::Sc1 => &self.sc[1],
            StaticSet::Sc2 => &self.sc[2],
            StaticSet::Sc3 => &self.sc[3],
            StaticSet::SemSc0 => &self.semsc[0],
            StaticSet::SemSc1 => &self.semsc[1],
            StaticSet::SemSc2 => &self.semsc[2],
            StaticSet::SemSc3 => &self.semsc[3],
            StaticSet::ScopeSg => &self.scopesg,
            StaticSet::ScopeWg => &self.scopewg,
            StaticSet::ScopeQf => &self.scopeqf,
            StaticSet::ScopeDev => &self.scopedev,
            StaticSet::Cbar => &self.cbar,
            StaticSet::Av => &self.av,
            StaticSet::Vis => &self.vis,
            StaticSet::SemAv => &self.semav,
            StaticSet::SemVis => &self.semvis,
            StaticSet::AvDevice => &self.avdevice,
            StaticSet::VisDevice => &self.visdevice,
            StaticSet::NonPriv => &self.nonpriv,
            StaticSet::Priv => &self.priv_,
            StaticSet::AvShader => &self.avshader,
            StaticSet::VisShader => &self.visshader,
            StaticSet::AvQf => &self.avqf,
            StaticSet::VisQf => &self.visqf,
            StaticSet::AvWg => &self.avwg,
            StaticSet::VisWg => &self.viswg,
            StaticSet::AvSg => &self.avsg,
            StaticSet::VisSg => &self.vissg,
        }
    }

    /// The static relation `r`.
    #[inline]
    pub fn rel(&self, r: StaticRel) -> &Rel {
        match r {
            StaticRel::Id => &self.iden,
            StaticRel::Sthd => &self.sthd,
            StaticRel::Po => &self.po,
            StaticRel::MmraCompat => &self.mmra_compat,
            StaticRel::Ssg => &self.same_level[0],
            StaticRel::Swg => &self.same_level[1],
            StaticRel::Sqf => &self.same_level[2],
            StaticRel::Ssw => &self.ssw,
            StaticRel::ScbarInst => &self.scbarinst,
            StaticRel::Sloc => &self.sloc,
            StaticRel::Sref => &self.sref,
            StaticRel::SswPlus => &self.ssw_plus,
            StaticRel::Chains => &self.chains,
            StaticRel::Inscope => &self.inscope,
            StaticRel::MutOrdAtom => &self.mutordatom,
            StaticRel::AvVisInc => &self.avvisinc,
            StaticRel::PoScToSem => &self.posctosem,
            StaticRel::PoSemToSc => &self.posemtosc,
            StaticRel::PoOpt => &self.po_opt,
            StaticRel::PoHb => &self.po_hb,
        }
    }
}

/// The tags of the event `e` (none for an event of no access, as in unit tests).
fn event_tags<'p>(program: &'p Program, e: &Event) -> Option<&'p MmraTags> {
    match program.threads.get(e.thread)?.code.get(e.instr)? {
        Instruction::Access(a) if !a.mmra.is_empty() => Some(&a.mmra),
        _ => None,
    }
}

/// `mmra-compat`: pairs of events whose tag sets are compatible (seed 003). The empty
/// set is compatible with every set, so only pairs of tagged events are checked.
fn mmra_compat(program: &Program, events: &[Event]) -> Rel {
    let n = events.len();
    let tags: Vec<Option<&MmraTags>> = events.iter().map(|e| event_tags(program, e)).collect();
    if tags.iter().all(Option::is_none) {
        return Rel::full(n);
    }
    rel_of(n, |a, b| match (tags[a], tags[b]) {
        (Some(x), Some(y)) => x.compatible(y),
        _ => true,
    })
}

fn set_of(events: &[Event], n: usize, f: impl Fn(&Event) -> bool) -> EventSet {
    EventSet::from_iter(
        n,
        events
            .iter()
            .enumerate()
            .filter(|(_, e)| f(e))
            .map(|(i, _)| i),
    )
}

fn rel_of(n: usize, f: impl Fn(usize, usize) -> bool) -> Rel {
    let mut r = Rel::empty(n);
    for a in 0..n {
        for b in 0..n {
            if f(a, b) {
                r.insert(a, b);
            }
        }
    }
    r
}

/// The equivalence "same key" on the events that have one: `(a, b)` iff `key(a) ==
/// key(b)` and both are `Some` (as `rel_of` with that test, in O(n) row copies instead of
/// n² tests: Statics::new runs once per path combination, and the XF barrier has
/// thousands).
fn rel_by_key<K: Ord + Clone>(n: usize, key: impl Fn(usize) -> Option<K>) -> Rel {
    let keys: Vec<Option<K>> = (0..n).map(key).collect();
    let mut classes: std::collections::BTreeMap<K, EventSet> = std::collections::BTreeMap::new();
    for (e, k) in keys.iter().enumerate() {
        if let Some(k) = k {
            classes
                .entry(k.clone())
                .or_insert_with(|| EventSet::new(n))
                .insert(e);
        }
    }
    let mut r = Rel::empty(n);
    for (e, k) in keys.iter().enumerate() {
        if let Some(k) = k {
            r.set_row(e, &classes[k]);
        }
    }
    r
}

/// `po` for events listed in program order within each thread: `(a, b)` iff `a < b` and
/// both are in one thread (as `rel_of` with that test, in n row copies instead of n²
/// tests: the successors of `a` are the events of its thread seen after it, walking
/// backwards).
fn program_order(n: usize, thread: impl Fn(usize) -> usize) -> Rel {
    let mut later: Vec<EventSet> = Vec::new();
    let mut po = Rel::empty(n);
    for a in (0..n).rev() {
        let t = thread(a);
        if later.len() <= t {
            later.resize_with(t + 1, || EventSet::new(n));
        }
        po.set_row(a, &later[t]);
        later[t].insert(a);
    }
    po
}

impl Statics {
    /// Builds the static sets and relations. `events` are in program order within each
    /// thread (an event's po-successors are the later events of its thread); `scbarinst`
    /// relates the cbars that form one dynamic instance (built by the enumerator from the
    /// input format's barrier rule).
    pub fn new(
        program: &Program,
        events: Vec<Event>,
        scbarinst: Rel,
        opts: &ModelOptions,
    ) -> Statics {
        let n = events.len();
        let flag = |fl: Flags| set_of(&events, n, |e| e.flags.has(fl));
        let ev = EventSet::full(n);
        let r = flag(Flags::R);
        let w = flag(Flags::W);
        let sc: [EventSet; CLASSES] = std::array::from_fn(|i| flag(Flags::sc(i as u8)));
        let semsc: [EventSet; CLASSES] = std::array::from_fn(|i| flag(Flags::semsc(i as u8)));
        let classes_in_use = (0..CLASSES)
            .filter(|&i| !sc[i].is_empty() || !semsc[i].is_empty())
            .fold(0u8, |m, i| m | 1 << i);
        let av = flag(Flags::AV);
        let vis = flag(Flags::VIS);
        let semav = flag(Flags::SEMAV);
        let semvis = flag(Flags::SEMVIS);
        let scopesg = flag(Flags::SCOPESG);
        let scopewg = flag(Flags::SCOPEWG);
        let scopeqf = flag(Flags::SCOPEQF);
        let scopedev = flag(Flags::SCOPEDEV);
        let nonpriv = flag(Flags::NONPRIV);
        let rw = r.union(&w);
        // PRIV = R+W-NONPRIV
        let priv_ = rw.minus(&nonpriv);
        let av_semav = av.union(&semav);
        let vis_semvis = vis.union(&semvis);
        let dev_qf = scopedev.union(&scopeqf);
        let dev_qf_wg = dev_qf.union(&scopewg);
        let all_scopes = dev_qf_wg.union(&scopesg);

        let th = |i: usize| &program.threads[events[i].thread];
        // sthd and "same instance" of each scope level (Vulkan: ssg, swg, sqf):
        // equivalences from the thread ids, as Thread::same_instance compares them.
        let sthd = rel_by_key(n, |a| Some(events[a].thread));
        let same_level: Vec<Rel> = (0..program.dialect.levels.len())
            .map(|l| rel_by_key(n, |a| Some(th(a).instance(l))))
            .collect();
        // po: events are listed in program order within a thread.
        let po = program_order(n, |a| events[a].thread);
        // ssw: every event of thread i ssw every event of thread j.
        // (row by row: the events of the threads thread(a) ssw, looked up once per pair
        // of the program's ssw list instead of once per pair of events)
        let mut ssw = Rel::empty(n);
        for a in 0..n {
            let mut row = EventSet::new(n);
            for &(ta, tb) in &program.ssw {
                if ta == events[a].thread {
                    row.union_with(&set_of(&events, n, |e| e.thread == tb));
                }
            }
            ssw.set_row(a, &row);
        }
        // (Warshall tests n² pairs even when there is nothing to close: most tests
        // declare no ssw.)
        let ssw_plus = if ssw.is_empty() {
            ssw.clone()
        } else {
            ssw.plus()
        };
        // sloc = ^(rai[pgmsloc]) + stor[R+W]: accesses to one location.
        let sloc = rel_by_key(n, |a| rw.contains(a).then_some(events[a].location));
        // sref = ^(rai[pgmsref]) + stor[R+W]: accesses through one reference.
        let sref = rel_by_key(n, |a| rw.contains(a).then_some(events[a].reference));
        // chains = EV->EV, or stor[EV] when chains are not supported.
        let iden = Rel::identity(n);
        let chains = if opts.chains {
            Rel::full(n)
        } else {
            iden.clone()
        };
        // inscope = (SCOPEDEV -> SCOPEDEV) + (sqf & (...)) + (swg & (...)) + (ssg & (...))
        // (the hand-written engine's Vulkan terms: levels 0, 1, 2 are the subgroup,
        // workgroup and queue family; another dialect's tests never reach it)
        let level = |l: usize| same_level.get(l).cloned().unwrap_or_else(|| Rel::empty(n));
        let (ssg, swg, sqf) = (level(0), level(1), level(2));
        let inscope = Rel::cross(&scopedev, &scopedev)
            .union(&sqf.inter(&Rel::cross(&dev_qf, &dev_qf)))
            .union(&swg.inter(&Rel::cross(&dev_qf_wg, &dev_qf_wg)))
            .union(&ssg.inter(&Rel::cross(&all_scopes, &all_scopes)));
        let a = flag(Flags::A);
        // mutordatom = (sloc & sref & (A -> A) & inscope) - iden
        let mutordatom = sloc
            .inter(&sref)
            .inter(&Rel::cross(&a, &a))
            .inter(&inscope)
            .minus(&iden);
        // posctosem = po & ((SC0 -> SEMSC0) + (SC1 -> SEMSC1) + ...)
        // posemtosc = po & ((SEMSC0 -> SC0) + (SEMSC1 -> SC1) + ...)
        let mut sc_to_sem = Rel::empty(n);
        let mut sem_to_sc = Rel::empty(n);
        for i in 0..CLASSES {
            sc_to_sem.union_with(&Rel::cross(&sc[i], &semsc[i]));
            sem_to_sc.union_with(&Rel::cross(&semsc[i], &sc[i]));
        }
        let posctosem = po.inter(&sc_to_sem);
        let posemtosc = po.inter(&sem_to_sc);
        let avdevice = flag(Flags::AVDEVICE);
        let visdevice = flag(Flags::VISDEVICE);
        let avvisinc = avvisinc(
            opts.variant,
            &rw,
            &sc,
            &semsc,
            &semav,
            &semvis,
            &avdevice,
            &visdevice,
            &av,
            &vis,
            &sref,
            &sloc,
            &iden,
        );
        let po_opt = po.opt();
        let mmra_compat = mmra_compat(program, &events);
        let po_hb = if opts.mmra {
            po.inter(&mmra_compat)
        } else {
            po.clone()
        };

        Statics {
            dialect: program.dialect,
            mmra_compat,
            po_hb,
            mmra: opts.mmra,
            n,
            ev,
            f: flag(Flags::F),
            acq: flag(Flags::ACQ),
            rel: flag(Flags::REL),
            cbar: flag(Flags::CBAR),
            avshader: av_semav.inter(&scopedev),
            visshader: vis_semvis.inter(&scopedev),
            avqf: av_semav.inter(&dev_qf),
            visqf: vis_semvis.inter(&dev_qf),
            avwg: av_semav.inter(&dev_qf_wg),
            viswg: vis_semvis.inter(&dev_qf_wg),
            avsg: av_semav,
            vissg: vis_semvis,
            events,
            r,
            w,
            a,
            sc,
            semsc,
            scopesg,
            scopewg,
            scopeqf,
            scopedev,
            av,
            vis,
            semav,
            semvis,
            avdevice,
            visdevice,
            nonpriv,
            priv_,
            classes_in_use,
            sthd,
            po,
            same_level,
            ssw,
            ssw_plus,
            scbarinst,
            sloc,
            sref,
            chains,
            inscope,
            mutordatom,
            avvisinc,
            posctosem,
            posemtosc,
            po_opt,
            iden,
            data: Rel::empty(n),
            ctrl: Rel::empty(n),
            addr: Rel::empty(n),
        }
    }
}

/// `avvisinc`: which accesses an availability/visibility operation includes.
#[allow(clippy::too_many_arguments)]
fn avvisinc(
    variant: Variant,
    rw: &EventSet,
    sc: &[EventSet; CLASSES],
    semsc: &[EventSet; CLASSES],
    semav: &EventSet,
    semvis: &EventSet,
    avdevice: &EventSet,
    visdevice: &EventSet,
    av: &EventSet,
    vis: &EventSet,
    sref: &Rel,
    sloc: &Rel,
    iden: &Rel,
) -> Rel {
    // rai[stor[AV+VIS] . (sref & sloc)]: per-instruction av/vis include accesses through
    // the same reference (and themselves).
    let per_instruction = Rel::stor(&av.union(vis)).seq(&sref.inter(sloc)).rai();
    match variant {
        // (SC0+SC1)->AVDEVICE + VISDEVICE->(SC0+SC1) + SCi->(SEMSCi&SEMAV)
        //   + (SEMSCi&SEMVIS)->SCi + rai[stor[AV+VIS] . (sref & sloc)]
        Variant::Vulkan => {
            let mut r = Rel::cross(rw, avdevice).union(&Rel::cross(visdevice, rw));
            for i in 0..CLASSES {
                r.union_with(&Rel::cross(&sc[i], &semsc[i].inter(semav)));
                r.union_with(&Rel::cross(&semsc[i].inter(semvis), &sc[i]));
            }
            r.union(&per_instruction)
        }
        // rai[((SC0+SC1)->(AVDEVICE+VISDEVICE)) + (SCi->((SEMAV+SEMVIS)&SEMSCi))] - iden
        //   + rai[stor[AV+VIS] . (sref & sloc)]
        Variant::Vulkan2024 => {
            let mut r = Rel::cross(rw, &avdevice.union(visdevice));
            let semavvis = semav.union(semvis);
            for i in 0..CLASSES {
                r.union_with(&Rel::cross(&sc[i], &semavvis.inter(&semsc[i])));
            }
            r.rai().minus(iden).union(&per_instruction)
        }
    }
}

#[cfg(test)]
mod key_tests {
    use super::*;

    /// `program_order` is `rel_of` with "same thread and earlier", threads interleaved
    /// or not.
    #[test]
    fn program_order_matches_pairwise_test() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for n in [0usize, 1, 5, 63, 64, 65, 130] {
            for _ in 0..20 {
                let threads: Vec<usize> = (0..n)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        (x % 5) as usize
                    })
                    .collect();
                let want = rel_of(n, |a, b| threads[a] == threads[b] && a < b);
                assert_eq!(program_order(n, |a| threads[a]), want, "{threads:?}");
            }
        }
    }

    /// `rel_by_key` is `rel_of` with "both have a key and the keys are equal".
    #[test]
    fn rel_by_key_matches_pairwise_test() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for n in [1usize, 5, 63, 64, 65, 130] {
            for _ in 0..20 {
                let keys: Vec<Option<u64>> = (0..n)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        (!x.is_multiple_of(5)).then_some(x % 4)
                    })
                    .collect();
                let want = rel_of(n, |a, b| keys[a].is_some() && keys[a] == keys[b]);
                assert_eq!(rel_by_key(n, |a| keys[a]), want, "{keys:?}");
            }
        }
    }
}
