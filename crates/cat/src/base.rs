//! The base sets and relations a model may use: the only names that are not defined in
//! the cat file itself. The shared ones ([`BASES`]) every test has; the others are the
//! dialects' own ([`vkherd_model::Dialect::bases`]), found in the registry
//! ([`dialect_bases`]). docs/models.md has the same tables, with what each one means.

use std::sync::LazyLock;
use vkherd_model::{BaseValue, EventSet, Rel, StaticRel, StaticSet, Statics};

/// A cat value's type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    Set,
    Rel,
}

/// How often a value can change while the enumerator runs: once per path combination
/// (static), once per scoped modification order (asmo), or once per candidate (rf).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stage {
    Static,
    Asmo,
    Candidate,
}

/// One base name.
pub struct Base {
    pub id: BaseName,
    pub name: &'static str,
    pub kind: Kind,
    pub stage: Stage,
    /// What it is, for docs/models.md and `vkherd models`.
    pub doc: &'static str,
}

macro_rules! bases {
    ($($id:ident $name:literal $kind:ident $stage:ident $doc:literal;)*) => {
        /// A base name, typed: what the evaluators match on instead of the name's text.
        /// A shared one's position in [`BASES`] is its index there; a dialect's base is
        /// its index in [`dialect_bases`] ([`BaseName::info`]).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum BaseName {
            $(#[doc = $doc] $id,)*
            /// A base a dialect gives its tests: its index in [`dialect_bases`].
            Dialect(u16),
            /// A base of Dat3M's event view only: its index in
            /// [`view_bases`].
            View(u16),
        }

        /// The shared base names, in the order of docs/models.md.
        pub const BASES: &[Base] = &[$(Base { id: BaseName::$id, name: $name, kind: Kind::$kind, stage: Stage::$stage, doc: $doc },)*];

        impl BaseName {
            /// Its value in `s`: a shared static base is the [`StaticSet`] or
            /// [`StaticRel`] of the same name (so the table's kind is checked by the
            /// compiler), a dialect's base what the test's dialect computes for it.
            fn static_value(self, s: &Statics) -> Value {
                match self {
                    $(BaseName::$id => static_of!($stage $kind $id s),)*
                    BaseName::Dialect(i) => dialect_value(&dialect_bases()[i as usize], s),
                    BaseName::View(_) => unreachable!("a view base is valued by the view"),
                }
            }

            /// Its entry in [`BASES`] or [`dialect_bases`].
            pub fn info(self) -> &'static Base {
                let mut i = 0;
                $(
                    if self == BaseName::$id {
                        return &BASES[i];
                    }
                    i += 1;
                )*
                let _ = i;
                match self {
                    BaseName::Dialect(d) => &dialect_bases()[d as usize],
                    BaseName::View(v) => &view_bases()[v as usize].base,
                    _ => unreachable!("every shared base is in BASES"),
                }
            }
        }
    };
}

/// A static base's value, by the model's typed lookup; the others have none.
macro_rules! static_of {
    (Static Set $id:ident $s:ident) => {
        Value::Set($s.set(StaticSet::$id).clone())
    };
    (Static Rel $id:ident $s:ident) => {
        Value::Rel($s.rel(StaticRel::$id).clone())
    };
    ($stage:ident $kind:ident $id:ident $s:ident) => {
        unreachable!("`{}` is not a static base", BaseName::$id.name())
    };
}

bases! {
    Ev "EV" Set Static "every event";
    R "R" Set Static "reads (an atomic read-modify-write is in R and W)";
    W "W" Set Static "writes";
    F "F" Set Static "fences (membar, and cbar with acquire/release semantics)";
    A "A" Set Static "atomic accesses";
    Acq "ACQ" Set Static "acquire semantics";
    Rel "REL" Set Static "release semantics";
    Cbar "CBAR" Set Static "control barriers";
    Id "id" Rel Static "the identity on events (Alloy `iden`)";
    Sthd "sthd" Rel Static "same thread (invocation)";
    Po "po" Rel Static "program order (transitive)";
    MmraCompat "mmra-compat" Rel Static "pairs of events whose MMRA tag sets are compatible (seed 003; every pair when no event has tags)";
    ScbarInst "scbarinst" Rel Static "same dynamic instance of a control barrier";
    Sloc "sloc" Rel Static "same location (an equivalence on R+W)";
    Sref "sref" Rel Static "same reference (an equivalence on R+W)";
    Asmo "asmo" Rel Asmo "the scoped modification order chosen by the enumerator";
    Rf "rf" Rel Candidate "reads-from, from writes (the initial value is not an event)";
    RfInit "RFINIT" Set Candidate "reads that read the initial value";
}

impl BaseName {
    /// Its name in cat files.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    pub fn kind(self) -> Kind {
        self.info().kind
    }

    pub fn stage(self) -> Stage {
        self.info().stage
    }
}

/// The base name written `name` in cat files: a shared one or some dialect's.
pub fn lookup(name: &str) -> Option<BaseName> {
    all_bases().find(|b| b.name == name).map(|b| b.id)
}

/// Every base name: the shared ones, then the dialects' in the order of the registry.
pub fn all_bases() -> impl Iterator<Item = &'static Base> {
    BASES.iter().chain(dialect_bases())
}

/// The bases the dialects give their tests ([`vkherd_model::Dialect::bases`]), each name
/// once, in the order of the registry: a name several dialects give is one base, whose
/// value each test's dialect computes ([`dialect_value`]).
pub fn dialect_bases() -> &'static [Base] {
    static TABLE: LazyLock<Vec<Base>> = LazyLock::new(|| {
        let mut table: Vec<Base> = Vec::new();
        for d in vkherd_dialects::ALL {
            for b in d.bases {
                let kind = kind_of(b.value);
                match table.iter().find(|t| t.name == b.name) {
                    Some(t) => assert_eq!(
                        t.kind, kind,
                        "dialects disagree on the kind of `{}`",
                        b.name
                    ),
                    None => {
                        assert!(
                            BASES.iter().all(|s| s.name != b.name),
                            "`{}` is a shared base name",
                            b.name
                        );
                        table.push(Base {
                            id: BaseName::Dialect(table.len() as u16),
                            name: b.name,
                            kind,
                            stage: Stage::Static,
                            doc: b.doc,
                        });
                    }
                }
            }
        }
        table
    });
    &TABLE
}

pub(crate) fn kind_of(v: BaseValue) -> Kind {
    match v {
        BaseValue::Set(_) | BaseValue::AnyOf(_) | BaseValue::InitWithout(_) => Kind::Set,
        BaseValue::SameLevel(_) | BaseValue::Ssw | BaseValue::Dep(_) => Kind::Rel,
    }
}

/// Is `b` a syntactic dependency (`addr`, `data`, `ctrl`): a base some dialect computes
/// per path combination as [`BaseValue::Dep`] ([`crate::Model::reads_dependencies`])?
pub fn is_dependency(b: BaseName) -> bool {
    let name = b.name();
    (vkherd_dialects::ALL.iter())
        .any(|d| matches!(d.base(name).map(|x| x.value), Some(BaseValue::Dep(_))))
}

/// The value of a dialect's base `b` in `s`, as the test's dialect computes it; empty in
/// a test of a dialect without it (a model that reads it is refused for such tests,
/// [`crate::Model::foreign_bases`]).
fn dialect_value(b: &Base, s: &Statics) -> Value {
    let n = s.n();
    match s.dialect().base(b.name).map(|d| d.value) {
        Some(BaseValue::Set(mask)) => Value::Set(s.flag_set(mask)),
        Some(BaseValue::SameLevel(level)) => Value::Rel(s.same_level(level).clone()),
        Some(BaseValue::Ssw) => Value::Rel(s.rel(StaticRel::Ssw).clone()),
        Some(BaseValue::Dep(kind)) => Value::Rel(s.dependency(kind).clone()),
        Some(BaseValue::AnyOf(masks)) => {
            let mut set = EventSet::new(n);
            for &m in masks {
                set.union_with(&s.flag_set(m));
            }
            Value::Set(set)
        }
        // Initial writes are events in Dat3M's view only.
        Some(BaseValue::InitWithout(_)) => Value::Set(EventSet::new(n)),
        None if b.kind == Kind::Set => Value::Set(EventSet::new(n)),
        None => Value::Rel(Rel::empty(n)),
    }
}

/// A value of the evaluator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    Set(EventSet),
    Rel(Rel),
}

impl Value {
    pub fn rel(&self) -> &Rel {
        match self {
            Value::Rel(r) => r,
            Value::Set(_) => unreachable!("type-checked: a relation"),
        }
    }

    pub fn set(&self) -> &EventSet {
        match self {
            Value::Set(s) => s,
            Value::Rel(_) => unreachable!("type-checked: a set"),
        }
    }

    pub fn is_empty(&self) -> bool {
        match self {
            Value::Set(s) => s.is_empty(),
            Value::Rel(r) => r.is_empty(),
        }
    }
}

/// The value of static base `b` for an execution, looked up in `s` by the
/// [`StaticSet`] or [`StaticRel`] of the same name.
pub fn static_value(b: BaseName, s: &Statics) -> Value {
    b.static_value(s)
}

// The base names of Dat3M's event view (crate::view): here, beside the shared and the
// dialects' tables, so that `BaseName::info` finds them without importing the view.

/// What a view base is, beyond its name and type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViewValue {
    /// The initial writes, one per location (`IW`).
    Init,
    /// Dat3M's coherence order: per location, the initial write first, then the
    /// enumerated order of the location's writes (`co`, per asmo).
    Co,
    /// Memory events, `R | W` (`M`).
    Memory,
    /// Same location, the initial write included (`loc`).
    Loc,
    /// Same reference (`vloc`).
    Vloc,
    /// Same thread (`int`).
    Int,
    /// Not the same thread (`ext`).
    Ext,
    /// From the read half of each read-modify-write to its write half (`amo`).
    Amo,
    /// Load-exclusive/store-exclusive pairs: none in GPU tests (`lxsx`).
    Nothing,
    /// Both halves of each read-modify-write (`RMW`).
    Rmw,
    /// Atomic accesses (`ATOM`).
    Atomic,
    /// Events of undefined behaviour: none here (`UB`).
    NoEvents,
    /// The same dynamic barrier instance (`syncbar`).
    Syncbar,
    /// A dialect's value, by the test's dialect's [`vkherd_model::Dat3mView::bases`].
    Dialect,
}

/// A base name of the view.
pub struct ViewBase {
    pub base: Base,
    pub value: ViewValue,
}

/// The view's own names: (name, type, value, doc).
const SHARED: &[(&str, Kind, ViewValue, &str)] = &[
    (
        "IW",
        Kind::Set,
        ViewValue::Init,
        "the initial writes, one per location",
    ),
    (
        "co",
        Kind::Rel,
        ViewValue::Co,
        "coherence: per location, its initial write, then the enumerated order of its writes",
    ),
    ("M", Kind::Set, ViewValue::Memory, "memory events, R | W"),
    (
        "loc",
        Kind::Rel,
        ViewValue::Loc,
        "same location (initial writes included)",
    ),
    (
        "vloc",
        Kind::Rel,
        ViewValue::Vloc,
        "same reference (Vulkan's sref)",
    ),
    ("int", Kind::Rel, ViewValue::Int, "same thread"),
    ("ext", Kind::Rel, ViewValue::Ext, "not the same thread"),
    (
        "amo",
        Kind::Rel,
        ViewValue::Amo,
        "from the read half of each atomic read-modify-write to its write half",
    ),
    (
        "lxsx",
        Kind::Rel,
        ViewValue::Nothing,
        "load-exclusive/store-exclusive pairs: none",
    ),
    (
        "RMW",
        Kind::Set,
        ViewValue::Rmw,
        "both halves of each atomic read-modify-write",
    ),
    ("ATOM", Kind::Set, ViewValue::Atomic, "atomic accesses"),
    (
        "UB",
        Kind::Set,
        ViewValue::NoEvents,
        "events of undefined behaviour: none",
    ),
    (
        "syncbar",
        Kind::Rel,
        ViewValue::Syncbar,
        "same dynamic instance of a control barrier (scbarinst)",
    ),
];

/// Every base name only the view has: its own, then each dialect's
/// ([`vkherd_model::Dat3mView::bases`], a name several dialects give being one base whose
/// value each test's dialect computes). Indexed by [`BaseName::View`].
pub fn view_bases() -> &'static [ViewBase] {
    static TABLE: LazyLock<Vec<ViewBase>> = LazyLock::new(|| {
        let mut table: Vec<ViewBase> = Vec::new();
        let id = |table: &Vec<ViewBase>| BaseName::View(table.len() as u16);
        for &(name, kind, value, doc) in SHARED {
            let stage = match value {
                ViewValue::Co => Stage::Asmo,
                _ => Stage::Static,
            };
            let base = Base {
                id: id(&table),
                name,
                kind,
                stage,
                doc,
            };
            table.push(ViewBase { base, value });
        }
        for d in vkherd_dialects::ALL {
            for b in d.dat3m.bases {
                let kind = kind_of(b.value);
                match table.iter().find(|t| t.base.name == b.name) {
                    Some(t) => assert_eq!(t.base.kind, kind, "dialects disagree on `{}`", b.name),
                    None => {
                        let stage = Stage::Static;
                        let base = Base {
                            id: id(&table),
                            name: b.name,
                            kind,
                            stage,
                            doc: b.doc,
                        };
                        table.push(ViewBase {
                            base,
                            value: ViewValue::Dialect,
                        });
                    }
                }
            }
        }
        table
    });
    &TABLE
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`BaseName::info`] finds each base's entry: its id is its own, and its name finds
    /// it, for the shared bases and the dialects'.
    #[test]
    fn each_base_name_is_its_entry() {
        for b in all_bases() {
            assert_eq!(b.id.info().name, b.name);
            assert_eq!(b.id.name(), b.name);
            assert_eq!(lookup(b.name), Some(b.id));
        }
        assert!(!dialect_bases().is_empty());
        assert_eq!(lookup("RFINIT"), Some(BaseName::RfInit));
        assert_eq!(BaseName::RfInit.stage(), Stage::Candidate);
        assert_eq!(BaseName::Po.kind(), Kind::Rel);
        assert_eq!(lookup("rfinit"), None);
    }

    /// Every dialect's base is in the table once, with its kind.
    #[test]
    fn every_dialect_base_is_in_the_table() {
        for d in vkherd_dialects::ALL {
            for b in d.bases {
                let found = lookup(b.name).unwrap_or_else(|| panic!("{}", b.name));
                assert_eq!(found.kind(), kind_of(b.value), "{}", b.name);
                assert!(matches!(found, BaseName::Dialect(_)), "{}", b.name);
            }
        }
    }
}
