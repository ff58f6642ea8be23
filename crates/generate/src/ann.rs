//! Annotations: what a cycle (or a searched program) says about an access, a fence or
//! control barrier, and where two invocations sit, in each dialect's words
//! (docs/generate.md "Annotations"). A `...Spec` is what was written, every field
//! optional; resolving it fills the defaults and checks that the words hold together.

use super::dialects::GenDialect;
use super::error::ErrorKind;

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

    /// Its word in `d`: the key of the dialect's scope level (`sg`, `wg`, `qf`; OpenCL
    /// `dev`) that two invocations share, or across the root, the dialect's own word.
    pub fn word(self, d: &dyn GenDialect) -> &'static str {
        match self {
            Level::Dv => d.root_word(),
            shared => d.dialect().levels[shared as usize].key,
        }
    }

    pub fn from_word(word: &str, d: &dyn GenDialect) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.word(d) == word)
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
    /// Its word in `d`: a scope is an instance of a level, named as the level is
    /// ([`Level::word`]); the work-item scope is `wi`.
    pub fn word(self, d: &dyn GenDialect) -> &'static str {
        match self {
            Scope::Wi => "wi",
            Scope::Sg => Level::Sg.word(d),
            Scope::Wg => Level::Wg.word(d),
            Scope::Qf => Level::Qf.word(d),
            Scope::Dv => Level::Dv.word(d),
        }
    }

    pub fn from_word(word: &str, d: &dyn GenDialect) -> Option<Scope> {
        d.scopes().iter().copied().find(|s| s.word(d) == word)
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

/// Classifies an annotation word of `d`: the words every dialect shares, then its own.
pub fn word(text: &str, d: &dyn GenDialect) -> Option<Word> {
    if let Some(s) = Scope::from_word(text, d) {
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
    common.or_else(|| d.word(text))
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
    pub fn parse(words: &[&str], d: &dyn GenDialect) -> Result<AccessSpec, AnnError> {
        let mut s = AccessSpec::default();
        for &w in words {
            s.add(w, d)?;
        }
        Ok(s)
    }

    fn add(&mut self, text: &str, d: &dyn GenDialect) -> Result<(), AnnError> {
        let said = match word(text, d) {
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
            Some(Word::Storage(k)) => {
                set(&mut self.storage, k, "storage classes", |k| d.storage_word(k))
            }
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
                    d.vocabulary()
                )))
            }
        };
        said.map_err(AnnError::clash)
    }

    /// Merges what two places say about one event (an annotation given twice, or the
    /// read and write halves of an RMW).
    pub fn merge(&self, other: &AccessSpec, d: &dyn GenDialect) -> Result<AccessSpec, String> {
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
            set(&mut s.storage, k, "storage classes", |k| d.storage_word(k))?;
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
    /// The storage classes of the semantics (bit i = `semscI`), for acquire and release
    /// only, in a dialect whose accesses carry them ([`GenDialect::access_classes`]); 0
    /// otherwise.
    pub semsc: u8,
}

impl Access {
    /// A relaxed atomic at the dialect's default scope: an access nothing is said about.
    pub fn relaxed(d: &dyn GenDialect) -> Access {
        Access {
            mode: Mode::Atomic,
            order: Order::Relaxed,
            scope: Some(d.default_scope()),
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
        d: &dyn GenDialect,
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
                    s.word(d)
                ))
            }
            Some(s) => Some(s),
            None if scoped => Some(d.default_scope()),
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
        let semsc = d.access_classes(spec.semsc, order != Order::Relaxed, storage)?;
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
    pub fn parse(words: &[&str], d: &dyn GenDialect) -> Result<FenceSpec, AnnError> {
        let mut s = FenceSpec::default();
        let kind_word = |k| d.fence_word(k).to_string();
        for &text in words {
            let said = match word(text, d) {
                Some(Word::Membar) => set(&mut s.kind, FenceKind::Membar, "fence kinds", kind_word),
                Some(Word::Cbar) => set(&mut s.kind, FenceKind::Cbar, "fence kinds", kind_word),
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
                // Fence flags that name the memory regions (OpenCL's `global`, `local`).
                Some(Word::Storage(k)) if d.storage_on_fences() => {
                    s.semsc = Some(s.semsc.unwrap_or(0) | (1 << k));
                    Ok(())
                }
                Some(_) => {
                    return Err(AnnError::unknown(format!(
                        "`{text}` is not an annotation of a fence or barrier; expected {}",
                        d.fence_vocabulary()
                    )))
                }
                None => {
                    return Err(AnnError::unknown(format!(
                        "unknown annotation `{text}`; expected {}",
                        d.fence_vocabulary()
                    )))
                }
            };
            said.map_err(AnnError::clash)?;
        }
        Ok(s)
    }
}

fn order_word(o: Option<Order>) -> &'static str {
    o.map_or("nosem", Order::word)
}

/// A resolved fence or control barrier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Fence {
    pub kind: FenceKind,
    /// `None`: a control barrier without memory semantics.
    pub order: Option<Order>,
    pub scope: Scope,
    /// The storage classes of the semantics (Vulkan `semscN`; OpenCL's fence flags, bit
    /// 0 global, bit 1 local).
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
        d: &dyn GenDialect,
    ) -> Result<Fence, String> {
        let kind = spec.kind.unwrap_or(default_kind);
        let order = spec.order.unwrap_or(Some(Order::AcqRel));
        let scope = spec.scope.unwrap_or(match kind {
            FenceKind::Membar => d.default_scope(),
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
        d.check_fence(kind, order, spec.semsc)?;
        // A barrier without semantics orders no storage class.
        let semsc = match order {
            None => 0,
            Some(_) => spec.semsc.unwrap_or(classes.max(1)),
        };
        Ok(Fence {
            kind,
            order,
            scope,
            semsc,
            semav,
            semvis,
        })
    }
}
