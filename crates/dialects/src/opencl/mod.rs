//! The OpenCL dialect: herd's C-like `.litmus` files headed `OPENCL` (docs/opencl.md),
//! judged by the SPIR-V memory model for OpenCL (opencl.cat, seed 004).

pub mod ast;
pub mod lower;
pub mod syntax;

pub use lower::lower_opencl;
pub use syntax::{is_opencl, parse_opencl};

/// The cat files of its bundled models.
pub const MODEL_FILES: &[(&str, &str)] = &[("opencl.cat", include_str!("models/opencl.cat"))];

use vkherd_model::{
    AsmoShape, BarrierWait, BaseValue, BundledModel, Dialect, DialectBase, Flags, Rel, ScopeLevel,
    StaticRel, StaticSet, Statics,
};

/// seq_cst operations (the base set `SC`; docs/opencl.md), a flag bit of OpenCL's own.
pub const SEQCST: Flags = Flags(1 << 26);
/// memory_scope_work_item (the base set `SCOPEWI`), a flag bit of OpenCL's own.
pub const SCOPEWI: Flags = Flags(1 << 27);

/// The OpenCL dialect.
pub static OPENCL: Dialect = Dialect {
    name: "opencl",
    title: "OpenCL",
    header: "OPENCL",
    a_test: "an OpenCL test",
    claims: is_opencl,
    load,
    levels: &[
        ScopeLevel { key: "sg", member: "sub-group", drawn: false },
        ScopeLevel { key: "wg", member: "work-group", drawn: true },
        ScopeLevel { key: "dev", member: "device", drawn: true },
    ],
    invocation: "work-item",
    root: "system",
    barrier_level: 1,
    bases: BASES,
    models: &[BundledModel {
        name: "opencl",
        variants: &[],
        file: "opencl.cat",
        doc: "the SPIR-V memory model for OpenCL (seed 004), default for OPENCL tests",
        summary: Some("the SPIR-V memory model for OpenCL (seed 004), cat engine; the default for OPENCL tests"),
        hand_written_twin: false,
    }],
    model_files: MODEL_FILES,
    asmo_shape: AsmoShape::ExactPairs,
    ordered_writes,
    ordered_write: |f| f.has(Flags::W),
    barrier_agreement: Flags(
        Flags::SCOPESG.0
            | Flags::SCOPEWG.0
            | Flags::SCOPEQF.0
            | Flags::SCOPEDEV.0
            | Flags::ACQ.0
            | Flags::REL.0
            | Flags::SEMSC0.0
            | Flags::SEMSC1.0
            | Flags::SEMSC2.0
            | Flags::SEMSC3.0,
    ),
    barrier_arrive: Flags::NONE,
    barrier_wait: BarrierWait::Program,
    runs_on_device: false,
    translations: &[],
};

fn load(source: &str) -> Result<vkherd_model::Program, vkherd_litmus::Diagnostic> {
    lower_opencl(&parse_opencl(source)?)
}

/// The pairs `asmo` orders (seed 004 §3.6, C11): "All modifications to a particular atomic
/// object M occur in some particular total order, called the modification order of M".
/// The order is per location and unscoped, and it covers every write to the location,
/// atomic or not: the coherence and visible-side-effect rules of §3.6 compare non-atomic
/// writes in it too (a non-atomic write that races is still a side effect of M). So:
/// every pair of distinct writes to one location, and the orders the enumerator generates
/// are exactly the per-location total orders.
fn ordered_writes(s: &Statics) -> Rel {
    s.rel(StaticRel::Sloc)
        .restrict(s.set(StaticSet::W), s.set(StaticSet::W))
        .minus(s.rel(StaticRel::Id))
}

/// The base sets and relations of OpenCL tests (docs/opencl.md, opencl.cat's header).
const BASES: &[DialectBase] = &[
    base(
        "SC0",
        "accesses to global memory",
        BaseValue::Set(Flags::SC0),
    ),
    base(
        "SC1",
        "accesses to local memory",
        BaseValue::Set(Flags::SC1),
    ),
    base(
        "SEMSC0",
        "fences and barriers naming CLK_GLOBAL_MEM_FENCE",
        BaseValue::Set(Flags::SEMSC0),
    ),
    base(
        "SEMSC1",
        "fences and barriers naming CLK_LOCAL_MEM_FENCE",
        BaseValue::Set(Flags::SEMSC1),
    ),
    base(
        "SCOPESG",
        "memory_scope_sub_group",
        BaseValue::Set(Flags::SCOPESG),
    ),
    base(
        "SCOPEWG",
        "memory_scope_work_group",
        BaseValue::Set(Flags::SCOPEWG),
    ),
    base(
        "SCOPEQF",
        "memory_scope_device",
        BaseValue::Set(Flags::SCOPEQF),
    ),
    base(
        "SCOPEDEV",
        "memory_scope_all_svm_devices",
        BaseValue::Set(Flags::SCOPEDEV),
    ),
    base("SC", "seq_cst operations", BaseValue::Set(SEQCST)),
    base("SCOPEWI", "memory_scope_work_item", BaseValue::Set(SCOPEWI)),
    base("ssg", "same sub-group", BaseValue::SameLevel(0)),
    base("swg", "same work-group", BaseValue::SameLevel(1)),
    base("sqf", "same device", BaseValue::SameLevel(2)),
    DialectBase::ADDR,
    DialectBase::DATA,
    DialectBase::CTRL,
];

const fn base(name: &'static str, doc: &'static str, value: BaseValue) -> DialectBase {
    DialectBase { name, doc, value }
}
