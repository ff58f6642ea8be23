//! Annotations: what a cycle (or a searched program) says about an access, a fence or
//! control barrier, and where two invocations sit, in each dialect's words
//! (docs/generate.md "Annotations"). A `...Spec` is what was written, every field
//! optional; resolving it fills the defaults and checks that the words hold together.

use super::error::ErrorKind;
use super::Dialect;

/// Why annotation words were refused: an unknown word, or words that clash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnnError {
    pub kind: ErrorKind,
    pub message: String,
}

impl AnnError {
    fn unknown(message: String) -> AnnError {
        AnnError {
            kind: ErrorKind::UnknownAnnotation,
            message,
        }
    }

    fn clash(message: String) -> AnnError {
        AnnError {
            kind: ErrorKind::Incompatible,
            message,
        }
    }
}

/// Where two invocations sit: the narrowest group they share.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// One subgroup.
    Sg,
    /// One workgroup, different subgroups.
    Wg,
    /// One queue family (OpenCL: one device), different workgroups.
    Qf,
    /// Different queue families (OpenCL: different devices).
    Dv,
}

impl Level {
    pub const ALL: [Level; 4] = [Level::Sg, Level::Wg, Level::Qf, Level::Dv];

    /// The default placement of an external edge: different workgroups of one queue
    /// family (one device), as the hand-written corpus places its classic shapes.
    pub const DEFAULT: Level = Level::Qf;

    pub fn word(self, dialect: Dialect) -> &'static str {
        match (self, dialect) {
            (Level::Sg, _) => "sg",
            (Level::Wg, _) => "wg",
            (Level::Qf, Dialect::Vulkan) => "qf",
            (Level::Dv, Dialect::Vulkan) => "dv",
            (Level::Qf, Dialect::OpenCl) => "dev",
            (Level::Dv, Dialect::OpenCl) => "all",
        }
    }

    pub fn from_word(word: &str, dialect: Dialect) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.word(dialect) == word)
    }
}

/// The memory scope of an atomic, an av/vis access, a fence or a barrier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scope {
    /// OpenCL `memory_scope_work_item` (no Vulkan word).
    Wi,
    Sg,
    Wg,
    /// Vulkan QueueFamily; OpenCL `memory_scope_device`.
    Qf,
    /// Vulkan Device; OpenCL `memory_scope_all_svm_devices`.
    Dv,
}

impl Scope {
    /// The scopes a dialect can write.
    pub fn all(dialect: Dialect) -> &'static [Scope] {
        match dialect {
            Dialect::Vulkan => &[Scope::Sg, Scope::Wg, Scope::Qf, Scope::Dv],
            Dialect::OpenCl => &[Scope::Wi, Scope::Sg, Scope::Wg, Scope::Qf, Scope::Dv],
        }
    }

    /// The scope of an atomic or fence that says none: Vulkan Device (the corpus's
    /// classic shapes), OpenCL C's default `memory_scope_device`.
    pub fn default_for(dialect: Dialect) -> Scope {
        match dialect {
            Dialect::Vulkan => Scope::Dv,
            Dialect::OpenCl => Scope::Qf,
        }
    }

    pub fn word(self, dialect: Dialect) -> &'static str {
        match (self, dialect) {
            (Scope::Wi, _) => "wi",
            (Scope::Sg, _) => "sg",
            (Scope::Wg, _) => "wg",
            (Scope::Qf, Dialect::Vulkan) => "qf",
            (Scope::Dv, Dialect::Vulkan) => "dv",
            (Scope::Qf, Dialect::OpenCl) => "dev",
            (Scope::Dv, Dialect::OpenCl) => "all",
        }
    }

    pub fn from_word(word: &str, dialect: Dialect) -> Option<Scope> {
        Scope::all(dialect)
            .iter()
            .copied()
            .find(|s| s.word(dialect) == word)
    }
}

/// The ordering semantics of an atomic access or fence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Order {
    Relaxed,
    Acquire,
    Release,
    AcqRel,
    /// OpenCL `memory_order_seq_cst` (no Vulkan word).
    SeqCst,
}

impl Order {
    pub fn word(self) -> &'static str {
        match self {
            Order::Relaxed => "rlx",
            Order::Acquire => "acq",
            Order::Release => "rel",
            Order::AcqRel => "acq_rel",
            Order::SeqCst => "sc",
        }
    }

    pub fn acquires(self) -> bool {
        matches!(self, Order::Acquire | Order::AcqRel | Order::SeqCst)
    }

    pub fn releases(self) -> bool {
        matches!(self, Order::Release | Order::AcqRel | Order::SeqCst)
    }
}

/// What kind of access: plain private, plain non-private, plain with per-instruction
/// availability (writes) or visibility (reads), or atomic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mode {
    Plain,
    NonPriv,
    AvVis,
    Atomic,
}

/// The direction of an access.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    R,
    W,
    Rmw,
}

impl Kind {
    pub fn reads(self) -> bool {
        self != Kind::W
    }

    pub fn writes(self) -> bool {
        self != Kind::R
    }

    fn what(self) -> &'static str {
        match self {
            Kind::R => "a read",
            Kind::W => "a write",
            Kind::Rmw => "a read-modify-write",
        }
    }
}

/// One annotation word, classified.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Word {
    Mode(Mode),
    /// `av` (true) or `vis` (false): [`Mode::AvVis`], checked against the direction.
    AvVis(bool),
    Order(Order),
    Scope(Scope),
    SemAv,
    SemVis,
    Storage(u8),
    SemSc(u8),
    /// Vulkan `membar` / OpenCL `fence`: a fence made of a memory barrier.
    Membar,
    /// Vulkan `cbar` / OpenCL `barrier`: a control barrier.
    Cbar,
    /// A control barrier without memory semantics.
    NoSem,
}

/// Classifies an annotation word of `dialect`.
pub fn word(text: &str, dialect: Dialect) -> Option<Word> {
    if let Some(s) = Scope::from_word(text, dialect) {
        return Some(Word::Scope(s));
    }
    let order = |t: &str| {
        Some(match t {
            "rlx" => Order::Relaxed,
            "acq" => Order::Acquire,
            "rel" => Order::Release,
            "acq_rel" => Order::AcqRel,
            _ => return None,
        })
    };
    if let Some(o) = order(text) {
        return Some(Word::Order(o));
    }
    let common = match text {
        "na" | "plain" => Some(Word::Mode(Mode::Plain)),
        "atom" => Some(Word::Mode(Mode::Atomic)),
        "nosem" => Some(Word::NoSem),
        _ => None,
    };
    if common.is_some() {
        return common;
    }
    let digit = |prefix: &str| {
        text.strip_prefix(prefix)
            .and_then(|d| d.parse::<u8>().ok())
            .filter(|d| *d < vkherd_dialects::vulkan::ast::MAX_STORAGE_CLASSES)
    };
    match dialect {
        Dialect::Vulkan => match text {
            "nonpriv" => Some(Word::Mode(Mode::NonPriv)),
            "av" => Some(Word::AvVis(true)),
            "vis" => Some(Word::AvVis(false)),
            "semav" => Some(Word::SemAv),
            "semvis" => Some(Word::SemVis),
            "membar" => Some(Word::Membar),
            "cbar" => Some(Word::Cbar),
            _ => digit("semsc")
                .map(Word::SemSc)
                .or_else(|| digit("sc").map(Word::Storage)),
        },
        Dialect::OpenCl => match text {
            "sc" => Some(Word::Order(Order::SeqCst)),
            "global" => Some(Word::Storage(0)),
            "local" => Some(Word::Storage(1)),
            "fence" => Some(Word::Membar),
            "barrier" => Some(Word::Cbar),
            _ => None,
        },
    }
}

/// The words of a dialect, for error messages.
pub fn vocabulary(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::Vulkan => "na, nonpriv, av, vis, atom, rlx, acq, rel, acq_rel, semav, semvis, sg, wg, qf, dv, sc0..sc3, semsc0..semsc3",
        Dialect::OpenCl => "na, atom, rlx, acq, rel, acq_rel, sc, wi, sg, wg, dev, all, global, local",
    }
}

/// What an event annotation says; `None` = not said (a default, or varied by `--vary`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct AccessSpec {
    pub mode: Option<Mode>,
    pub order: Option<Order>,
    pub scope: Option<Scope>,
    pub semav: Option<bool>,
    pub semvis: Option<bool>,
    pub semsc: Option<u8>,
    /// The location's storage class (Vulkan `scN`, OpenCL `global`/`local`).
    pub storage: Option<u8>,
    /// `av` (true) or `vis` (false) as written, checked against the direction.
    pub avvis_word: Option<bool>,
}

/// Sets a field once: a second, different value is an error naming both (`what`: the
/// field in the plural, "two scopes").
fn set<T: PartialEq + Copy>(
    slot: &mut Option<T>,
    value: T,
    what: &str,
    show: impl Fn(T) -> String,
) -> Result<(), String> {
    match *slot {
        Some(old) if old != value => Err(format!(
            "two {what}, `{}` and `{}`: expected one",
            show(old),
            show(value)
        )),
        _ => {
            *slot = Some(value);
            Ok(())
        }
    }
}

impl AccessSpec {
    /// Parses the dotted words of an event annotation (`rel.wg.semav`).
    pub fn parse(words: &[&str], dialect: Dialect) -> Result<AccessSpec, AnnError> {
        let mut s = AccessSpec::default();
        for &w in words {
            s.add(w, dialect)?;
        }
        Ok(s)
    }

    fn add(&mut self, text: &str, dialect: Dialect) -> Result<(), AnnError> {
        let d = dialect;
        let said = match word(text, dialect) {
            Some(Word::Mode(m)) => set(&mut self.mode, m, "access kinds", mode_word),
            Some(Word::AvVis(av)) => {
                set(&mut self.mode, Mode::AvVis, "access kinds", mode_word).and_then(|()| {
                    set(&mut self.avvis_word, av, "availability words", |a| {
                        if a { "av" } else { "vis" }.to_string()
                    })
                })
            }
            Some(Word::Order(o)) => set(&mut self.order, o, "semantics", |o| o.word().into()),
            Some(Word::Scope(sc)) => set(&mut self.scope, sc, "scopes", |s| s.word(d).into()),
            Some(Word::SemAv) => set(&mut self.semav, true, "semav words", |_| "semav".into()),
            Some(Word::SemVis) => set(&mut self.semvis, true, "semvis words", |_| "semvis".into()),
            Some(Word::Storage(k)) => set(&mut self.storage, k, "storage classes", |k| {
                storage_word(k, d).to_string()
            }),
            Some(Word::SemSc(k)) => {
                let bits = self.semsc.unwrap_or(0) | (1 << k);
                self.semsc = Some(bits);
                Ok(())
            }
            Some(Word::Membar | Word::Cbar | Word::NoSem) => {
                return Err(AnnError::unknown(format!(
                    "`{text}` is a fence or barrier word, not an access annotation; fences are written on `Fenced..` edges (`FencedWW.{text}`)"
                )))
            }
            None => {
                return Err(AnnError::unknown(format!(
                    "unknown annotation `{text}`; expected one of {}",
                    vocabulary(dialect)
                )))
            }
        };
        said.map_err(AnnError::clash)
    }

    /// Merges what two places say about one event (an annotation given twice, or the
    /// read and write halves of an RMW).
    pub fn merge(&self, other: &AccessSpec, dialect: Dialect) -> Result<AccessSpec, String> {
        let d = dialect;
        let mut s = self.clone();
        if let Some(m) = other.mode {
            set(&mut s.mode, m, "access kinds", mode_word)?;
        }
        if let Some(o) = other.order {
            set(&mut s.order, o, "semantics", |o| o.word().into())?;
        }
        if let Some(sc) = other.scope {
            set(&mut s.scope, sc, "scopes", |x| x.word(d).into())?;
        }
        if let Some(v) = other.semav {
            set(&mut s.semav, v, "semav words", |_| "semav".into())?;
        }
        if let Some(v) = other.semvis {
            set(&mut s.semvis, v, "semvis words", |_| "semvis".into())?;
        }
        if let Some(v) = other.semsc {
            s.semsc = Some(s.semsc.unwrap_or(0) | v);
        }
        if let Some(k) = other.storage {
            set(&mut s.storage, k, "storage classes", |k| storage_word(k, d))?;
        }
        if let Some(a) = other.avvis_word {
            set(&mut s.avvis_word, a, "availability words", |a| {
                if a { "av" } else { "vis" }.into()
            })?;
        }
        Ok(s)
    }
}

fn mode_word(m: Mode) -> String {
    match m {
        Mode::Plain => "na",
        Mode::NonPriv => "nonpriv",
        Mode::AvVis => "av/vis",
        Mode::Atomic => "atom",
    }
    .to_string()
}

/// `sc1` (Vulkan) or `local` (OpenCL).
pub fn storage_word(k: u8, dialect: Dialect) -> String {
    match dialect {
        Dialect::Vulkan => format!("sc{k}"),
        Dialect::OpenCl if k == 0 => "global".into(),
        Dialect::OpenCl => "local".into(),
    }
}

/// A resolved access annotation (the storage class belongs to the location).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Access {
    pub mode: Mode,
    /// `Relaxed` for non-atomic accesses.
    pub order: Order,
    /// Atomics and av/vis accesses only.
    pub scope: Option<Scope>,
    pub semav: bool,
    pub semvis: bool,
    /// Vulkan: the storage classes of the semantics (bit i = `semscI`), for acquire and
    /// release only. OpenCL: 0.
    pub semsc: u8,
}

impl Access {
    /// A relaxed atomic at the dialect's default scope: an access nothing is said about.
    pub fn relaxed(dialect: Dialect) -> Access {
        Access {
            mode: Mode::Atomic,
            order: Order::Relaxed,
            scope: Some(Scope::default_for(dialect)),
            semav: false,
            semvis: false,
            semsc: 0,
        }
    }

    /// Resolves `spec` for an access of `kind` to a location of storage class `storage`:
    /// the defaults (a relaxed atomic at the dialect's default scope; acquire and release
    /// semantics on the access's own storage class) and the rules of the litmus formats
    /// (docs/litmus-format.md, docs/opencl.md). The error says which words clash.
    pub fn resolve(
        spec: &AccessSpec,
        kind: Kind,
        storage: u8,
        dialect: Dialect,
    ) -> Result<Access, String> {
        let mode = match (spec.mode, spec.order) {
            (Some(m), Some(o)) if m != Mode::Atomic => {
                return Err(format!(
                    "`{}` on a non-atomic access (`{}`): acquire, release and relaxed are atomic semantics",
                    o.word(),
                    mode_word(m)
                ))
            }
            (Some(m), _) => m,
            (None, _) => Mode::Atomic,
        };
        let order = spec.order.unwrap_or(Order::Relaxed);
        let what = kind.what();
        if kind == Kind::Rmw && mode != Mode::Atomic {
            return Err(format!(
                "`{}` on a read-modify-write: a read-modify-write is atomic",
                mode_word(mode)
            ));
        }
        if let Some(av) = spec.avvis_word {
            if av && kind == Kind::R {
                return Err(
                    "`av` on a read: per-instruction availability is for writes (reads take `vis`)"
                        .into(),
                );
            }
            if !av && kind == Kind::W {
                return Err(
                    "`vis` on a write: per-instruction visibility is for reads (writes take `av`)"
                        .into(),
                );
            }
        }
        if kind == Kind::W && order.acquires() && order != Order::SeqCst {
            return Err(format!(
                "`{}` on {what}: a write may release (`rel`), not acquire",
                order.word()
            ));
        }
        if kind == Kind::R && order.releases() && order != Order::SeqCst {
            return Err(format!(
                "`{}` on {what}: a read may acquire (`acq`), not release",
                order.word()
            ));
        }
        let scoped = matches!(mode, Mode::Atomic | Mode::AvVis);
        let scope = match spec.scope {
            Some(s) if !scoped => {
                return Err(format!(
                    "a scope (`{}`) on a non-atomic access without av/vis: only atomics and av/vis accesses have a scope",
                    s.word(dialect)
                ))
            }
            Some(s) => Some(s),
            None if scoped => Some(Scope::default_for(dialect)),
            None => None,
        };
        let semav = spec.semav.unwrap_or(false);
        let semvis = spec.semvis.unwrap_or(false);
        if semav && !order.releases() {
            return Err("`semav` without release: expected `rel` or `acq_rel`".into());
        }
        if semvis && !order.acquires() {
            return Err("`semvis` without acquire: expected `acq` or `acq_rel`".into());
        }
        let synchronises = order != Order::Relaxed;
        let semsc = match (dialect, spec.semsc) {
            (Dialect::OpenCl, _) => 0,
            (Dialect::Vulkan, Some(_)) if !synchronises => {
                return Err(
                    "`semscN` without acquire or release: expected `acq`, `rel` or `acq_rel`"
                        .into(),
                )
            }
            (Dialect::Vulkan, Some(bits)) => bits,
            (Dialect::Vulkan, None) if synchronises => 1 << storage,
            (Dialect::Vulkan, None) => 0,
        };
        Ok(Access {
            mode,
            order,
            scope,
            semav,
            semvis,
            semsc,
        })
    }
}

/// A fence or control barrier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FenceKind {
    Membar,
    Cbar,
}

/// What a `Fenced..` or `Cbar..` edge says about its fence or barrier.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct FenceSpec {
    pub kind: Option<FenceKind>,
    /// `Some(None)`: `nosem`, a control barrier without memory semantics.
    pub order: Option<Option<Order>>,
    pub scope: Option<Scope>,
    pub semsc: Option<u8>,
    pub semav: Option<bool>,
    pub semvis: Option<bool>,
}

impl FenceSpec {
    /// Parses the dotted words after a `Fenced..` or `Cbar..` edge name.
    pub fn parse(words: &[&str], dialect: Dialect) -> Result<FenceSpec, AnnError> {
        let d = dialect;
        let mut s = FenceSpec::default();
        for &text in words {
            let said = match word(text, dialect) {
                Some(Word::Membar) => {
                    set(&mut s.kind, FenceKind::Membar, "fence kinds", fence_word(d))
                }
                Some(Word::Cbar) => set(&mut s.kind, FenceKind::Cbar, "fence kinds", fence_word(d)),
                Some(Word::Order(o)) => {
                    set(&mut s.order, Some(o), "semantics", |o| order_word(o).into())
                }
                Some(Word::NoSem) => set(&mut s.order, None, "semantics", |o| order_word(o).into()),
                Some(Word::Scope(sc)) => set(&mut s.scope, sc, "scopes", |x| x.word(d).into()),
                Some(Word::SemAv) => set(&mut s.semav, true, "semav words", |_| "semav".into()),
                Some(Word::SemVis) => set(&mut s.semvis, true, "semvis words", |_| "semvis".into()),
                Some(Word::SemSc(k)) => {
                    s.semsc = Some(s.semsc.unwrap_or(0) | (1 << k));
                    Ok(())
                }
                // OpenCL's fence flags name the memory regions: `global`, `local`.
                Some(Word::Storage(k)) if dialect == Dialect::OpenCl => {
                    s.semsc = Some(s.semsc.unwrap_or(0) | (1 << k));
                    Ok(())
                }
                Some(_) => {
                    return Err(AnnError::unknown(format!(
                        "`{text}` is not an annotation of a fence or barrier; expected {}",
                        fence_vocabulary(dialect)
                    )))
                }
                None => {
                    return Err(AnnError::unknown(format!(
                        "unknown annotation `{text}`; expected {}",
                        fence_vocabulary(dialect)
                    )))
                }
            };
            said.map_err(AnnError::clash)?;
        }
        Ok(s)
    }
}

fn fence_word(dialect: Dialect) -> impl Fn(FenceKind) -> String {
    move |k| {
        match (k, dialect) {
            (FenceKind::Membar, Dialect::Vulkan) => "membar",
            (FenceKind::Cbar, Dialect::Vulkan) => "cbar",
            (FenceKind::Membar, Dialect::OpenCl) => "fence",
            (FenceKind::Cbar, Dialect::OpenCl) => "barrier",
        }
        .to_string()
    }
}

fn order_word(o: Option<Order>) -> &'static str {
    o.map_or("nosem", Order::word)
}

fn fence_vocabulary(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::Vulkan => "membar, cbar, acq, rel, acq_rel, nosem (cbar only), sg, wg, qf, dv, semsc0..semsc3, semav, semvis",
        Dialect::OpenCl => "fence, barrier, acq, rel, acq_rel, sc, nosem (barrier only), wi, sg, wg, dev, all, global, local",
    }
}

/// A resolved fence or control barrier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Fence {
    pub kind: FenceKind,
    /// `None`: a control barrier without memory semantics.
    pub order: Option<Order>,
    pub scope: Scope,
    /// Vulkan: the storage classes of the semantics; OpenCL: the fence flags (bit 0
    /// global, bit 1 local).
    pub semsc: u8,
    pub semav: bool,
    pub semvis: bool,
}

impl Fence {
    /// Resolves `spec`: a fence is by default an `acq_rel` memory barrier at the dialect's
    /// default scope, a barrier (`kind`) an `acq_rel` control barrier at workgroup scope;
    /// the semantics cover `classes` (the storage classes of the accesses around it)
    /// unless said.
    pub fn resolve(
        spec: &FenceSpec,
        default_kind: FenceKind,
        classes: u8,
        dialect: Dialect,
    ) -> Result<Fence, String> {
        let kind = spec.kind.unwrap_or(default_kind);
        let order = spec.order.unwrap_or(Some(Order::AcqRel));
        let scope = spec.scope.unwrap_or(match kind {
            FenceKind::Membar => Scope::default_for(dialect),
            FenceKind::Cbar => Scope::Wg,
        });
        if kind == FenceKind::Membar && order.is_none() {
            return Err(
                "`nosem` on a memory barrier: a fence needs `acq`, `rel` or `acq_rel`".into(),
            );
        }
        if order == Some(Order::Relaxed) {
            return Err(
                "`rlx` on a fence or barrier: expected `acq`, `rel`, `acq_rel` or (barriers) `nosem`"
                    .into(),
            );
        }
        let semav = spec.semav.unwrap_or(false);
        let semvis = spec.semvis.unwrap_or(false);
        if semav && !order.is_some_and(Order::releases) {
            return Err("`semav` without release: expected `rel` or `acq_rel`".into());
        }
        if semvis && !order.is_some_and(Order::acquires) {
            return Err("`semvis` without acquire: expected `acq` or `acq_rel`".into());
        }
        let semsc = match (order, spec.semsc) {
            (None, Some(_)) if dialect == Dialect::Vulkan => {
                return Err("`semscN` on a barrier without semantics (`nosem`)".into())
            }
            (None, _) if dialect == Dialect::Vulkan => 0,
            (_, Some(bits)) => bits,
            (_, None) => classes.max(1),
        };
        if dialect == Dialect::OpenCl
            && kind == FenceKind::Cbar
            && order.is_some()
            && order != Some(Order::AcqRel)
        {
            return Err(
                "an OpenCL barrier has acq_rel semantics (or `nosem`); expected no order word"
                    .into(),
            );
        }
        Ok(Fence {
            kind,
            order,
            scope,
            semsc: if order.is_none() { 0 } else { semsc },
            semav,
            semvis,
        })
    }
}
