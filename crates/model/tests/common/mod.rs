//! Helpers for hand-made executions: a tiny builder for `Program` + events, an attribute
//! mini-language for event flags (through `flags_of`, so the implicit facts of the Alloy
//! model are applied exactly as the lowering does), and exact-relation assertions.

#![allow(dead_code)]

use std::collections::BTreeSet;

use vkherd_dialects::vulkan::ast::{MemAttrs, Scope};
use vkherd_dialects::vulkan::lower::flags_of;
use vkherd_model::axioms::Candidate;
use vkherd_model::{
    AccessKind, CbarRule, Derived, Event, EventSet, Flags, Location, ModelOptions, Program,
    Reference, Rel, Statics, Thread, Variant,
};

/// `(location, reference)` of an access; `None` for fences, barriers, av/vis device ops.
pub type Loc = Option<(usize, usize)>;

/// Location x, through reference x.
pub const X: Loc = Some((0, 0));
/// Location y, through reference y.
pub const Y: Loc = Some((1, 1));
/// Location x through reference z (`z aliases x`): same location, different reference.
pub const Z: Loc = Some((0, 2));
/// Location f (a flag), through reference f.
pub const FLAG: Loc = Some((2, 3));
/// Location v, through reference v.
pub const V: Loc = Some((3, 4));
/// Location u, through reference u.
pub const U: Loc = Some((4, 5));
/// No location.
pub const NOLOC: Loc = None;

/// Flags of an instruction written as `kind.attr.attr...`, e.g. `st.atom.rel.wg.sc0.semsc0`.
/// Kinds: `ld st rmw membar cbar avdevice visdevice`. Attributes: `atom acq rel acq_rel
/// sg wg qf dv scN semscN semav semvis av vis nonpriv`. Implicit facts come from `flags_of`.
pub fn fl(spec: &str) -> Flags {
    let mut toks = spec.split('.');
    let kind = match toks.next().unwrap() {
        "ld" => AccessKind::Load,
        "st" => AccessKind::Store,
        "rmw" => AccessKind::Rmw,
        "membar" => AccessKind::Fence,
        "cbar" => AccessKind::Cbar,
        "avdevice" => AccessKind::AvDevice,
        "visdevice" => AccessKind::VisDevice,
        k => panic!("unknown kind {k}"),
    };
    let mut a = MemAttrs::default();
    for t in toks {
        match t {
            "atom" => a.atomic = true,
            "acq" => a.acq = true,
            "rel" => a.rel = true,
            "acq_rel" => {
                a.acq = true;
                a.rel = true;
            }
            "sg" => a.scope = Some(Scope::Subgroup),
            "wg" => a.scope = Some(Scope::Workgroup),
            "qf" => a.scope = Some(Scope::QueueFamily),
            "dv" => a.scope = Some(Scope::Device),
            "semav" => a.semav = true,
            "semvis" => a.semvis = true,
            "av" => a.av = true,
            "vis" => a.vis = true,
            "nonpriv" => a.nonpriv = true,
            t if t.starts_with("semsc") => a.semsc |= 1 << t[5..].parse::<u8>().unwrap(),
            t if t.starts_with("sc") => a.storage_class = Some(t[2..].parse().unwrap()),
            t => panic!("unknown attribute {t}"),
        }
    }
    flags_of(kind, &a)
}

/// A hand-made execution: threads with their (qf, wg, sg) ids, `ssw` between threads,
/// events in program order within each thread, and control-barrier instances.
pub struct Exec {
    pub groups: Vec<(u64, u64, u64)>,
    pub ssw: Vec<(usize, usize)>,
    pub events: Vec<Event>,
    pub cbar_instances: Vec<Vec<usize>>,
}

impl Exec {
    pub fn new(groups: &[(u64, u64, u64)]) -> Exec {
        Exec {
            groups: groups.to_vec(),
            ssw: Vec::new(),
            events: Vec::new(),
            cbar_instances: Vec::new(),
        }
    }

    /// Adds an event at the end of `thread`'s program order; returns its index.
    pub fn ev(&mut self, thread: usize, spec: &str, loc: Loc) -> usize {
        self.ev_flags(thread, fl(spec), loc)
    }

    /// Same as [`Exec::ev`] with flags set by hand.
    pub fn ev_flags(&mut self, thread: usize, flags: Flags, loc: Loc) -> usize {
        assert!(thread < self.groups.len());
        let instr = self.events.iter().filter(|e| e.thread == thread).count();
        self.events.push(Event {
            thread,
            instr,
            flags,
            location: loc.map(|(l, _)| l),
            reference: loc.map(|(_, r)| r),
        });
        self.events.len() - 1
    }

    /// `ssw i j`: every event of thread i ssw every event of thread j.
    pub fn ssw(&mut self, i: usize, j: usize) {
        self.ssw.push((i, j));
    }

    /// One dynamic instance of a control barrier (scbarinst is the equivalence relation
    /// whose classes are the instances).
    pub fn cbar_instance(&mut self, evs: &[usize]) {
        self.cbar_instances.push(evs.to_vec());
    }

    pub fn n(&self) -> usize {
        self.events.len()
    }

    pub fn program(&self) -> Program {
        let loc = |name: &str| Location {
            name: name.to_string(),
            init: 0,
        };
        let rf = |name: &str, location| Reference {
            name: name.to_string(),
            location,
        };
        Program {
            dialect: &vkherd_dialects::vulkan::VULKAN,
            description: String::new(),
            name: "hand-made".to_string(),
            threads: self
                .groups
                .iter()
                .map(|&(qf, wg, sg)| Thread {
                    scope: vec![sg, wg, qf],
                    code: Vec::new(),
                    init_regs: Vec::new(),
                })
                .collect(),
            locations: vec![loc("x"), loc("y"), loc("f"), loc("v"), loc("u")],
            references: vec![
                rf("x", 0),
                rf("y", 1),
                rf("z", 0),
                rf("f", 2),
                rf("v", 3),
                rf("u", 4),
            ],
            ssw: self.ssw.clone(),
            cbar_rule: CbarRule::Workgroup,
            observed: Vec::new(),
            filter: None,
            condition: None,
            constants: Vec::new(),
            reg_names: Default::default(),
            warnings: Vec::new(),
        }
    }

    pub fn scbarinst(&self) -> Rel {
        let mut r = Rel::empty(self.n());
        for inst in &self.cbar_instances {
            for &a in inst {
                for &b in inst {
                    r.insert(a, b);
                }
            }
        }
        r
    }

    /// Statics with the default options (`vulkan`, chains supported).
    pub fn statics(&self) -> Statics {
        self.statics_with(ModelOptions::default())
    }

    pub fn statics_with(&self, opts: ModelOptions) -> Statics {
        Statics::new(
            &self.program(),
            self.events.clone(),
            self.scbarinst(),
            &opts,
        )
    }
}

pub fn opts(variant: Variant, chains: bool) -> ModelOptions {
    ModelOptions {
        variant,
        chains,
        mmra: false,
    }
}

/// A candidate's rf, RFINIT and asmo, owned.
pub struct Cand {
    pub rf: Rel,
    pub rfinit: EventSet,
    pub asmo: Rel,
}

impl Cand {
    pub fn new(n: usize, rf: &[(usize, usize)], rfinit: &[usize], asmo: &[(usize, usize)]) -> Cand {
        Cand {
            rf: Rel::from_pairs(n, rf.iter().copied()),
            rfinit: EventSet::from_iter(n, rfinit.iter().copied()),
            asmo: Rel::from_pairs(n, asmo.iter().copied()),
        }
    }

    pub fn get(&self) -> Candidate<'_> {
        Candidate {
            rf: &self.rf,
            rfinit: &self.rfinit,
            asmo: &self.asmo,
        }
    }

    pub fn derive(&self, s: &Statics) -> Derived {
        Derived::compute(s, self.get())
    }
}

/// Asserts that `r` holds exactly the `expected` pairs.
#[track_caller]
pub fn assert_rel(name: &str, r: &Rel, expected: &[(usize, usize)]) {
    let got: BTreeSet<(usize, usize)> = r.pairs().collect();
    let want: BTreeSet<(usize, usize)> = expected.iter().copied().collect();
    if got != want {
        let missing: Vec<_> = want.difference(&got).collect();
        let extra: Vec<_> = got.difference(&want).collect();
        panic!(
            "{name}: got {got:?}\n  expected {want:?}\n  missing {missing:?}\n  extra {extra:?}"
        );
    }
}

/// Asserts that the set `s` holds exactly `expected`.
#[track_caller]
pub fn assert_set(name: &str, s: &EventSet, expected: &[usize]) {
    let got: BTreeSet<usize> = s.iter().collect();
    let want: BTreeSet<usize> = expected.iter().copied().collect();
    assert_eq!(got, want, "{name}");
}

/// `rai[p]`: the pairs and their inverses.
pub fn rai(p: &[(usize, usize)]) -> Vec<(usize, usize)> {
    p.iter().flat_map(|&(a, b)| [(a, b), (b, a)]).collect()
}

/// `stor[s]`
pub fn iden(s: &[usize]) -> Vec<(usize, usize)> {
    s.iter().map(|&a| (a, a)).collect()
}

/// `a -> b`
pub fn cross(a: &[usize], b: &[usize]) -> Vec<(usize, usize)> {
    a.iter()
        .flat_map(|&x| b.iter().map(move |&y| (x, y)))
        .collect()
}

/// The strict total order listing `s` in order: `(s[i], s[j])` for i < j.
pub fn order(s: &[usize]) -> Vec<(usize, usize)> {
    let mut v = Vec::new();
    for (i, &a) in s.iter().enumerate() {
        for &b in &s[i + 1..] {
            v.push((a, b));
        }
    }
    v
}

/// Concatenation of pair lists.
pub fn cat(parts: &[&[(usize, usize)]]) -> Vec<(usize, usize)> {
    parts.iter().flat_map(|p| p.iter().copied()).collect()
}

/// `ithb_S` of a derived execution, by storage-class mask.
pub fn ithb_of(d: &Derived, mask: u8) -> &Rel {
    &d.ithb
        .iter()
        .find(|(m, _)| *m == mask)
        .unwrap_or_else(|| panic!("no ithb for mask {mask:#b}"))
        .1
}
