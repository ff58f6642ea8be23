//! The annotation alphabet a family varies over (`--vary`) and a search draws from
//! (`distinguish`): scopes, placements, and the semantics words (docs/generate.md
//! "Alphabets").

use super::ann::{Kind, Level, Mode, Order, Scope};
use super::dialects::GenDialect;
use super::error::{ErrorKind, GenError};

/// The semantics words of an alphabet, each standing for some access and fence
/// annotations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Sem {
    /// Plain private accesses.
    Na,
    /// Plain non-private accesses (Vulkan).
    NonPriv,
    /// Plain accesses with availability (writes) or visibility (reads) (Vulkan).
    AvVis,
    /// Relaxed atomics.
    Rlx,
    /// Acquire reads, release writes, and every acquire/release RMW and fence.
    RelAcq,
    /// Those with `semav` (releases) and `semvis` (acquires) too (Vulkan).
    SemAvVis,
    /// Sequentially consistent atomics and fences (OpenCL).
    Sc,
}

impl Sem {
    pub fn word(self) -> &'static str {
        match self {
            Sem::Na => "na",
            Sem::NonPriv => "nonpriv",
            Sem::AvVis => "avvis",
            Sem::Rlx => "rlx",
            Sem::RelAcq => "relacq",
            Sem::SemAvVis => "semavvis",
            Sem::Sc => "sc",
        }
    }
}

/// What a family may vary over, or a search may draw from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Alphabet {
    pub dialect: &'static dyn GenDialect,
    pub sems: Vec<Sem>,
    pub scopes: Vec<Scope>,
    pub levels: Vec<Level>,
    /// Storage classes (Vulkan sc0.., OpenCL global/local) a location may take.
    pub storage: Vec<u8>,
}

impl Alphabet {
    /// The alphabet of `diy --vary`: every placement, both storage classes, and the
    /// dialect's family semantics words and scopes ([`GenDialect::family_sems`]: na,
    /// avvis, rlx, relacq, semavvis and every scope for Vulkan, nonpriv on request).
    pub fn family_default(d: &'static dyn GenDialect) -> Alphabet {
        Alphabet {
            dialect: d,
            sems: d.family_sems().to_vec(),
            scopes: d.family_scopes().to_vec(),
            levels: Level::ALL.to_vec(),
            storage: vec![0, 1],
        }
    }

    /// The alphabet `distinguish` draws from by default: the family's semantics words,
    /// workgroup scope and the default scope, placements in one workgroup or in one queue
    /// family (device), storage class 0; small enough that the default bounds finish in
    /// well under a minute on two cores (docs/benchmarks.md).
    pub fn search_default(d: &'static dyn GenDialect) -> Alphabet {
        let mut scopes = vec![Scope::Wg, d.default_scope()];
        scopes.sort();
        scopes.dedup();
        Alphabet {
            scopes,
            levels: vec![Level::Wg, Level::DEFAULT],
            storage: vec![0],
            ..Alphabet::family_default(d)
        }
    }

    /// Replaces the parts given on the command line (comma-separated words).
    pub fn with(
        mut self,
        sems: &[String],
        scopes: &[String],
        levels: &[String],
    ) -> Result<Alphabet, GenError> {
        let d = self.dialect;
        let bad = |what: &str, w: &str, expected: Vec<&str>| {
            GenError::new(
                ErrorKind::BadOption,
                format!(
                    "unknown {what} `{w}`; expected one of {}",
                    expected.join(", ")
                ),
            )
        };
        if !sems.is_empty() {
            self.sems = sems
                .iter()
                .map(|w| {
                    d.sems()
                        .iter()
                        .copied()
                        .find(|s| s.word() == w)
                        .ok_or_else(|| {
                            bad(
                                "semantics word",
                                w,
                                d.sems().iter().map(|s| s.word()).collect(),
                            )
                        })
                })
                .collect::<Result<_, _>>()?;
        }
        if !scopes.is_empty() {
            self.scopes = scopes
                .iter()
                .map(|w| {
                    Scope::from_word(w, d).ok_or_else(|| {
                        bad("scope", w, d.scopes().iter().map(|s| s.word(d)).collect())
                    })
                })
                .collect::<Result<_, _>>()?;
        }
        if !levels.is_empty() {
            self.levels = levels
                .iter()
                .map(|w| {
                    Level::from_word(w, d).ok_or_else(|| {
                        bad(
                            "placement",
                            w,
                            Level::ALL.iter().map(|l| l.word(d)).collect(),
                        )
                    })
                })
                .collect::<Result<_, _>>()?;
        }
        self.sems.sort();
        self.sems.dedup();
        self.scopes.sort();
        self.scopes.dedup();
        self.levels.sort();
        self.levels.dedup();
        Ok(self)
    }

    pub fn has(&self, s: Sem) -> bool {
        self.sems.contains(&s)
    }

    /// The access modes the semantics words allow for an access of `kind`.
    pub fn modes(&self, kind: Kind) -> Vec<Mode> {
        let mut out = Vec::new();
        if kind != Kind::Rmw {
            for (s, m) in [
                (Sem::Na, Mode::Plain),
                (Sem::NonPriv, Mode::NonPriv),
                (Sem::AvVis, Mode::AvVis),
            ] {
                if self.has(s) {
                    out.push(m);
                }
            }
        }
        if [Sem::Rlx, Sem::RelAcq, Sem::SemAvVis, Sem::Sc]
            .iter()
            .any(|&s| self.has(s))
        {
            out.push(Mode::Atomic);
        }
        out
    }

    /// The atomic orders allowed for an access of `kind` (None: a fence).
    pub fn orders(&self, kind: Option<Kind>) -> Vec<Order> {
        let mut out = Vec::new();
        if self.has(Sem::Rlx) && kind.is_some() {
            out.push(Order::Relaxed);
        }
        if self.has(Sem::RelAcq) || self.has(Sem::SemAvVis) {
            match kind {
                Some(Kind::R) => out.push(Order::Acquire),
                Some(Kind::W) => out.push(Order::Release),
                _ => out.extend([Order::Acquire, Order::Release, Order::AcqRel]),
            }
        }
        if self.has(Sem::Sc) {
            out.push(Order::SeqCst);
        }
        out
    }

    /// `semav`/`semvis` choices for an order: with `semavvis`, both ways where the order
    /// allows them.
    pub fn sem_flags(&self, order: Option<Order>) -> Vec<(bool, bool)> {
        let Some(o) = order else {
            return vec![(false, false)];
        };
        let plain = self.has(Sem::RelAcq) || !self.has(Sem::SemAvVis);
        let mut out = Vec::new();
        for av in [false, true] {
            for vis in [false, true] {
                let any = av || vis;
                let fits = (!av || o.releases()) && (!vis || o.acquires());
                if fits
                    && (any && self.has(Sem::SemAvVis) || !any && (plain || o == Order::Relaxed))
                {
                    out.push((av, vis));
                }
            }
        }
        out
    }
}
