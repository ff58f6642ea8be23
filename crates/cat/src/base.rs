//! The base sets and relations a model may use: the only names that are not defined in
//! the cat file itself. docs/models.md has the same table, with what each one means.

use vkherd_model::{EventSet, Rel, StaticRel, StaticSet, Statics};

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
        /// Its position in [`BASES`] is its index there ([`BaseName::info`]).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum BaseName {
            $(#[doc = $doc] $id,)*
        }

        /// Every base name, in the order of docs/models.md.
        pub const BASES: &[Base] = &[$(Base { id: BaseName::$id, name: $name, kind: Kind::$kind, stage: Stage::$stage, doc: $doc },)*];

        impl BaseName {
            /// Its value in `s`: a static base is the [`StaticSet`] or [`StaticRel`] of
            /// the same name (so the table's kind is checked by the compiler).
            fn static_value(self, s: &Statics) -> Value {
                match self {
                    $(BaseName::$id => static_of!($stage $kind $id s),)*
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
    Sc0 "SC0" Set Static "accesses to storage class 0";
    Sc1 "SC1" Set Static "accesses to storage class 1";
    Sc2 "SC2" Set Static "accesses to storage class 2";
    Sc3 "SC3" Set Static "accesses to storage class 3";
    SemSc0 "SEMSC0" Set Static "storage class 0 in the memory semantics";
    SemSc1 "SEMSC1" Set Static "storage class 1 in the memory semantics";
    SemSc2 "SEMSC2" Set Static "storage class 2 in the memory semantics";
    SemSc3 "SEMSC3" Set Static "storage class 3 in the memory semantics";
    ScopeSg "SCOPESG" Set Static "subgroup scope";
    ScopeWg "SCOPEWG" Set Static "workgroup scope";
    ScopeQf "SCOPEQF" Set Static "queue family scope";
    ScopeDev "SCOPEDEV" Set Static "device scope";
    SeqCst "SC" Set Static "OpenCL: seq_cst operations (empty in Vulkan tests)";
    ScopeWi "SCOPEWI" Set Static "OpenCL: memory_scope_work_item (empty in Vulkan tests)";
    Cbar "CBAR" Set Static "control barriers";
    Av "AV" Set Static "per-instruction availability operations";
    Vis "VIS" Set Static "per-instruction visibility operations";
    SemAv "SEMAV" Set Static "availability in the memory semantics";
    SemVis "SEMVIS" Set Static "visibility in the memory semantics";
    AvDevice "AVDEVICE" Set Static "availability operations to the device domain";
    VisDevice "VISDEVICE" Set Static "visibility operations to the device domain";
    NonPriv "NONPRIV" Set Static "non-private accesses";
    Id "id" Rel Static "the identity on events (Alloy `iden`)";
    Sthd "sthd" Rel Static "same thread (invocation)";
    Po "po" Rel Static "program order (transitive)";
    MmraCompat "mmra-compat" Rel Static "pairs of events whose MMRA tag sets are compatible (seed 003; every pair when no event has tags)";
    Ssg "ssg" Rel Static "same subgroup";
    Swg "swg" Rel Static "same workgroup";
    Sqf "sqf" Rel Static "same queue family";
    Ssw "ssw" Rel Static "system-synchronizes-with, from the test's declarations";
    ScbarInst "scbarinst" Rel Static "same dynamic instance of a control barrier";
    Sloc "sloc" Rel Static "same location (an equivalence on R+W)";
    Sref "sref" Rel Static "same reference (an equivalence on R+W)";
    Asmo "asmo" Rel Asmo "the scoped modification order chosen by the enumerator";
    Rf "rf" Rel Candidate "reads-from, from writes (the initial value is not an event)";
    RfInit "RFINIT" Set Candidate "reads that read the initial value";
}

impl BaseName {
    /// Its entry in [`BASES`].
    pub fn info(self) -> &'static Base {
        &BASES[self as usize]
    }

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

/// The base name written `name` in cat files.
pub fn lookup(name: &str) -> Option<BaseName> {
    BASES.iter().find(|b| b.name == name).map(|b| b.id)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// [`BaseName::info`] indexes [`BASES`] by the variant's position: each entry's id is
    /// its own, and its name finds it.
    #[test]
    fn each_base_name_is_its_entry() {
        for (i, b) in BASES.iter().enumerate() {
            assert_eq!(b.id as usize, i, "{}", b.name);
            assert_eq!(b.id.name(), b.name);
            assert_eq!(lookup(b.name), Some(b.id));
        }
        assert_eq!(lookup("RFINIT"), Some(BaseName::RfInit));
        assert_eq!(BaseName::RfInit.stage(), Stage::Candidate);
        assert_eq!(BaseName::Po.kind(), Kind::Rel);
        assert_eq!(lookup("rfinit"), None);
    }
}
