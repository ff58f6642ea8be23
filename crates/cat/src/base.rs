//! The base sets and relations a model may use: the only names that are not defined in
//! the cat file itself. docs/models.md has the same table, with what each one means.

use vkherd_model::{EventSet, Rel, Statics};

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
    pub name: &'static str,
    pub kind: Kind,
    pub stage: Stage,
    /// What it is, for docs/models.md and `vkherd models`.
    pub doc: &'static str,
}

macro_rules! bases {
    ($($name:literal $kind:ident $stage:ident $doc:literal;)*) => {
        /// Every base name, in the order of docs/models.md.
        pub const BASES: &[Base] = &[$(Base { name: $name, kind: Kind::$kind, stage: Stage::$stage, doc: $doc },)*];
    };
}

bases! {
    "EV" Set Static "every event";
    "R" Set Static "reads (an atomic read-modify-write is in R and W)";
    "W" Set Static "writes";
    "F" Set Static "fences (membar, and cbar with acquire/release semantics)";
    "A" Set Static "atomic accesses";
    "ACQ" Set Static "acquire semantics";
    "REL" Set Static "release semantics";
    "SC0" Set Static "accesses to storage class 0";
    "SC1" Set Static "accesses to storage class 1";
    "SC2" Set Static "accesses to storage class 2";
    "SC3" Set Static "accesses to storage class 3";
    "SEMSC0" Set Static "storage class 0 in the memory semantics";
    "SEMSC1" Set Static "storage class 1 in the memory semantics";
    "SEMSC2" Set Static "storage class 2 in the memory semantics";
    "SEMSC3" Set Static "storage class 3 in the memory semantics";
    "SCOPESG" Set Static "subgroup scope";
    "SCOPEWG" Set Static "workgroup scope";
    "SCOPEQF" Set Static "queue family scope";
    "SCOPEDEV" Set Static "device scope";
    "SC" Set Static "OpenCL: seq_cst operations (empty in Vulkan tests)";
    "SCOPEWI" Set Static "OpenCL: memory_scope_work_item (empty in Vulkan tests)";
    "CBAR" Set Static "control barriers";
    "AV" Set Static "per-instruction availability operations";
    "VIS" Set Static "per-instruction visibility operations";
    "SEMAV" Set Static "availability in the memory semantics";
    "SEMVIS" Set Static "visibility in the memory semantics";
    "AVDEVICE" Set Static "availability operations to the device domain";
    "VISDEVICE" Set Static "visibility operations to the device domain";
    "NONPRIV" Set Static "non-private accesses";
    "id" Rel Static "the identity on events (Alloy `iden`)";
    "sthd" Rel Static "same thread (invocation)";
    "po" Rel Static "program order (transitive)";
    "mmra-compat" Rel Static "pairs of events whose MMRA tag sets are compatible (seed 003; every pair when no event has tags)";
    "ssg" Rel Static "same subgroup";
    "swg" Rel Static "same workgroup";
    "sqf" Rel Static "same queue family";
    "ssw" Rel Static "system-synchronizes-with, from the test's declarations";
    "scbarinst" Rel Static "same dynamic instance of a control barrier";
    "sloc" Rel Static "same location (an equivalence on R+W)";
    "sref" Rel Static "same reference (an equivalence on R+W)";
    "asmo" Rel Asmo "the scoped modification order chosen by the enumerator";
    "rf" Rel Candidate "reads-from, from writes (the initial value is not an event)";
    "RFINIT" Set Candidate "reads that read the initial value";
}

/// The index of a base name in [`BASES`].
pub fn lookup(name: &str) -> Option<usize> {
    BASES.iter().position(|b| b.name == name)
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

/// The value of static base `i` for an execution.
pub fn static_value(i: usize, s: &Statics) -> Value {
    let set = |x: &EventSet| Value::Set(x.clone());
    let rel = |x: &Rel| Value::Rel(x.clone());
    match BASES[i].name {
        "EV" => set(&s.ev),
        "R" => set(&s.r),
        "W" => set(&s.w),
        "F" => set(&s.f),
        "A" => set(&s.a),
        "ACQ" => set(&s.acq),
        "REL" => set(&s.rel),
        "SC0" => set(&s.sc[0]),
        "SC1" => set(&s.sc[1]),
        "SC2" => set(&s.sc[2]),
        "SC3" => set(&s.sc[3]),
        "SEMSC0" => set(&s.semsc[0]),
        "SEMSC1" => set(&s.semsc[1]),
        "SEMSC2" => set(&s.semsc[2]),
        "SEMSC3" => set(&s.semsc[3]),
        "SCOPESG" => set(&s.scopesg),
        "SCOPEWG" => set(&s.scopewg),
        "SCOPEQF" => set(&s.scopeqf),
        "SCOPEDEV" => set(&s.scopedev),
        "SC" => set(&s.seqcst),
        "SCOPEWI" => set(&s.scopewi),
        "CBAR" => set(&s.cbar),
        "AV" => set(&s.av),
        "VIS" => set(&s.vis),
        "SEMAV" => set(&s.semav),
        "SEMVIS" => set(&s.semvis),
        "AVDEVICE" => set(&s.avdevice),
        "VISDEVICE" => set(&s.visdevice),
        "NONPRIV" => set(&s.nonpriv),
        "id" => rel(&s.iden),
        "sthd" => rel(&s.sthd),
        "po" => rel(&s.po),
        "mmra-compat" => rel(&s.mmra_compat),
        "ssg" => rel(&s.ssg),
        "swg" => rel(&s.swg),
        "sqf" => rel(&s.sqf),
        "ssw" => rel(&s.ssw),
        "scbarinst" => rel(&s.scbarinst),
        "sloc" => rel(&s.sloc),
        "sref" => rel(&s.sref),
        other => unreachable!("`{other}` is not a static base"),
    }
}
