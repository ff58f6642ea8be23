//! A dialect, described as data: what shared code asks instead of matching on a dialect's
//! name (docs/architecture.md, "Adding a dialect"). Each dialect's folder in the
//! `vkherd-dialects` crate defines one [`Dialect`] value and registers it there; a lowered
//! [`Program`](crate::Program) carries the dialect it was written in.

use crate::execution::Statics;
use crate::flags::Flags;
use crate::program::Program;
use crate::rel::Rel;
use crate::translation::Translation;
use vkherd_litmus::Diagnostic;

/// A memory-model dialect: how its files are read, its scope tree, the base sets it gives
/// cat models, its bundled models, and the few facts the enumerator and the writers need.
pub struct Dialect {
    /// Its name in JSON, `--dialect` and messages: `vulkan`, `opencl`.
    pub name: &'static str,
    /// Its name in prose: `Vulkan`, `OpenCL`.
    pub title: &'static str,
    /// The header word of its `.litmus` files, as messages name its tests (`OPENCL tests`).
    pub header: &'static str,
    /// One of its tests in prose, with the article: `a Vulkan test`, `an OpenCL test`.
    pub a_test: &'static str,
    /// Does a `.litmus` source claim this dialect (by its header word)?
    pub claims: fn(&str) -> bool,
    /// Parses and lowers a `.litmus` source of this dialect.
    pub load: fn(&str) -> Result<Program, Diagnostic>,
    /// The levels of its scope tree, innermost first, between the invocation and the one
    /// root (which is not a level: every invocation is in it).
    pub levels: &'static [ScopeLevel],
    /// What one invocation is called (`invocation`, `work-item`, `thread`).
    pub invocation: &'static str,
    /// What the root holds, in words (`device`): the group the outermost level's
    /// instances are members of, as liveness explanations name it.
    pub root: &'static str,
    /// The scope level within whose instances control barriers meet (Vulkan: the
    /// workgroup; control-barriers.md).
    pub barrier_level: usize,
    /// The base sets and relations it gives cat models beyond the shared ones
    /// (docs/models.md): a model that reads a base of another dialect is not for it.
    pub bases: &'static [DialectBase],
    /// The shared base names (those every dialect's tests may have, `A`...) its tests
    /// never produce, each with what plays its part: a model that reads one is not for
    /// the dialect, as one that reads another dialect's base is not (docs/models.md,
    /// "Models and dialects").
    pub lacks: &'static [LackedBase],
    /// Its bundled models (`--model NAME`), the first the default for its tests.
    pub models: &'static [BundledModel],
    /// The cat files its bundled models are written in (and may include).
    pub model_files: &'static [(&'static str, &'static str)],
    /// The pairs of distinct writes the enumerated order `asmo` must order one way or the
    /// other (both directions): which writes a modification order covers is the model's
    /// first choice, so its dialect's.
    pub ordered_writes: fn(&Statics) -> Rel,
    /// What `asmo` is over those pairs: a strict partial order whose pairs are exactly
    /// them (Vulkan, OpenCL), or any acyclic orientation of them (PTX).
    pub asmo_shape: AsmoShape,
    /// Whether an event with these flags may be in a pair of [`Dialect::ordered_writes`]
    /// (for the size estimate before a run, which has no `Statics`): writes (per
    /// location), and events without a location such as PTX's fence.sc.
    pub ordered_write: fn(Flags) -> bool,
    /// The flags every control barrier of one dynamic instance must share (scope and
    /// semantics; control-barriers.md).
    pub barrier_agreement: Flags,
    /// The flags of a barrier that does not wait (PTX's `bar.cta.arrive`): a member of its
    /// instance that never blocks. [`Flags::NONE`]: every barrier waits.
    pub barrier_arrive: Flags,
    /// How barriers of one instance are waited for and what crossing orders mean
    /// ([`BarrierWait`]).
    pub barrier_wait: BarrierWait,
    /// `vkherd observe` can run its tests on a Vulkan device.
    pub runs_on_device: bool,
    /// The translations its folder provides, to or from it (`vkherd diff` and
    /// `vkherd distinguish` with models of two dialects; the registry finds them).
    pub translations: &'static [Translation],
    /// How Dat3M's cat models see its executions ([`Dat3mView`]).
    pub dat3m: Dat3mView,
}

/// What Dat3M's own cat models need of a dialect beyond the shared names (docs/models.md,
/// "Dat3M's event view"): Dat3M sees an execution with an initial write per location and
/// an atomic read-modify-write as a read and a write; the cat crate builds that view of
/// a path combination and maps the base names onto it, from this data.
pub struct Dat3mView {
    /// Dat3M's names for the dialect's sets and relations (its scope tags `DV`, `WG`, ...),
    /// as the dialect computes them on the view's events.
    pub bases: &'static [DialectBase],
    /// Flags of a read-modify-write that only its read half keeps (`ACQ`: Dat3M's
    /// acquire is on the load), besides `R`.
    pub read_half: Flags,
    /// Flags that only its write half keeps (`REL`), besides `W`.
    pub write_half: Flags,
    /// Flags an initial write takes from the accesses to its location (OpenCL's memory
    /// regions: Dat3M tags a location's init event with its address space).
    pub init_flags: Flags,
}

impl Dat3mView {
    /// No names of its own, every flag on both halves, nothing on initial writes.
    pub const NONE: Dat3mView = Dat3mView {
        bases: &[],
        read_half: Flags::NONE,
        write_half: Flags::NONE,
        init_flags: Flags::NONE,
    };
}

impl Dialect {
    /// Does a barrier with these flags wait for the other members of its instance?
    pub fn barrier_waits(&self, flags: Flags) -> bool {
        self.barrier_arrive == Flags::NONE || !flags.has(self.barrier_arrive)
    }

    /// The model its tests are judged by when no `--model` is given.
    pub fn default_model(&self) -> &'static BundledModel {
        &self.models[0]
    }

    /// Its base named `name`, if it has one.
    pub fn base(&self, name: &str) -> Option<&'static DialectBase> {
        self.bases.iter().find(|b| b.name == name)
    }

    /// The index of its scope level whose key is `key` (`wg`).
    pub fn level(&self, key: &str) -> Option<usize> {
        self.levels.iter().position(|l| l.key == key)
    }
}

impl PartialEq for Dialect {
    fn eq(&self, other: &Dialect) -> bool {
        self.name == other.name
    }
}

impl Eq for Dialect {}

impl std::fmt::Debug for Dialect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Dialect({})", self.name)
    }
}

/// A level of a scope tree (subgroup, workgroup, queue family; cta, gpu).
pub struct ScopeLevel {
    /// The short name: placements (`P0@sg 0, wg 1, qf 0`), `--progress` keys.
    pub key: &'static str,
    /// A member in words: `subgroup`, `work-group`.
    pub member: &'static str,
    /// Witness graphs draw its instances as boxes around their invocations.
    pub drawn: bool,
}

/// A shared base name a dialect's tests never produce ([`Dialect::lacks`]).
#[derive(Debug)]
pub struct LackedBase {
    /// Its name in cat files: `A`.
    pub name: &'static str,
    /// What the dialect has in its place, for the error that refuses a model reading it.
    pub instead: &'static str,
}

/// A base set or relation a dialect gives cat models, and how it is computed.
pub struct DialectBase {
    /// Its name in cat files: `SCOPEWG`, `ssg`.
    pub name: &'static str,
    /// What it is, for docs/models.md and `vkherd models`.
    pub doc: &'static str,
    pub value: BaseValue,
}

impl DialectBase {
    /// The syntactic dependencies, the same three rows in every dialect whose tests have
    /// them (computed per path combination by the enumerator's `deps.rs`).
    pub const ADDR: DialectBase = DialectBase {
        name: "addr",
        doc: "address dependencies: from a read to an access whose location a register computed from it chooses (`y[r0]`, `[r0]`)",
        value: BaseValue::Dep(DepKind::Addr),
    };
    pub const DATA: DialectBase = DialectBase {
        name: "data",
        doc: "data dependencies from reads, through registers along the path",
        value: BaseValue::Dep(DepKind::Data),
    };
    pub const CTRL: DialectBase = DialectBase {
        name: "ctrl",
        doc: "control dependencies from reads, through conditional jumps",
        value: BaseValue::Dep(DepKind::Ctrl),
    };
}

/// How a dialect's base is computed from a path combination.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BaseValue {
    /// The events with every flag of the mask.
    Set(Flags),
    /// The pairs of events whose invocations share the scope instance of a level.
    SameLevel(usize),
    /// `ssw`: every event of invocation i with every event of j, for the test's `ssw i j`.
    Ssw,
    /// A syntactic dependency from reads to later events of their thread's path
    /// ([`DepKind`]), computed per path combination by the enumerator.
    Dep(DepKind),
    /// The events with every flag of one of the masks (Dat3M's OpenCL `GLOBAL`: global
    /// accesses and fences naming global memory).
    AnyOf(&'static [Flags]),
    /// In Dat3M's view, the initial writes of the locations no access to which has every
    /// flag of the mask (Dat3M's OpenCL `NAL`, non-atomic locations); empty elsewhere.
    InitWithout(Flags),
}

/// The syntactic dependencies (herd's `addr`, `data`, `ctrl`): pairs (r, e) of a read r
/// and a later event e of its thread's path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DepKind {
    /// e's location is chosen by a register computed from the value r read
    /// ([`crate::Address`]).
    Addr,
    /// A value operand of e (the value stored, an RMW's operand, a compare-and-swap's
    /// expected value) is computed, through moves and arithmetic, from the value r read.
    Data,
    /// e is after a conditional jump whose operands are computed from the value r read.
    Ctrl,
}

/// What `asmo` is, given the pairs [`Dialect::ordered_writes`] names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AsmoShape {
    /// A strict partial order whose pairs are exactly the named pairs (Vulkan's
    /// `strict_partial_order[asmo]` on the mutually ordered atomics; OpenCL's total order
    /// per location).
    ExactPairs,
    /// Any acyclic orientation of the named pairs, given transitively closed (PTX: the
    /// morally strong pairs of writes and of fence.sc events, whose closure may relate
    /// pairs that are not named; the models read `asmo` only intersected with named
    /// pairs, where the closure of an acyclic orientation is the orientation).
    Orientation,
}

/// How the barriers of one instance wait for each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BarrierWait {
    /// A barrier waits for every invocation of its barrier-level instance whose program
    /// has it (control-barriers.md); instances met in crossing orders are an error in the
    /// test (Vulkan, OpenCL).
    Program,
    /// A barrier waits for the invocations whose path executes it (in this path
    /// combination); waiting barriers met in crossing orders (a cycle of waits) deadlock:
    /// the combination has no candidate (PTX, whose barriers may also be chosen by a
    /// register's value).
    Path,
}

/// A model built into the binary.
pub struct BundledModel {
    /// `--model NAME`.
    pub name: &'static str,
    /// The variants the name turns on (`vulkan-2024` is vulkan.cat with a variant).
    pub variants: &'static [&'static str],
    /// Its cat file, one of the dialect's `model_files`.
    pub file: &'static str,
    /// What it is, for `vkherd models` (as `cat:NAME`).
    pub doc: &'static str,
    /// Its line in `vkherd models` when `--model` takes its bare name (`vulkan`,
    /// `opencl`); `None`: it is named `cat:NAME` only.
    pub summary: Option<&'static str>,
    /// The hand-written Vulkan engine implements the same model: the static relations
    /// are built with its options for the model's variants (`CatEngine::bundled_vulkan`),
    /// so the differential tests (crates/enumerate/tests/cat_model.rs) compare the two.
    /// The search's shortcuts are derived from the model's checks, whatever this says.
    pub hand_written_twin: bool,
    /// The name its file gives the data race of semantics.md ("Outcomes": `dr`
    /// non-empty), which reports call `data-race` ([`crate::ModelFlag::DataRace`]);
    /// `None`: it has no such flag. Its other flags keep their names.
    pub race_flag: Option<&'static str>,
}
