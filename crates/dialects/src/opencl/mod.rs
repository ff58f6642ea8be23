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
    AsmoShape, BarrierWait, BaseValue, BundledModel, Dat3mView, Dialect, DialectBase, Flags, Rel,
    ScopeLevel, StaticRel, StaticSet, Statics,
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
    lacks: &[],
    models: &[BundledModel {
        name: "opencl",
        variants: &[],
        file: "opencl.cat",
        doc: "the SPIR-V memory model for OpenCL (seed 004), default for OPENCL tests",
        summary: Some("the SPIR-V memory model for OpenCL (seed 004), cat engine; the default for OPENCL tests"),
        hand_written_twin: false,
        race_flag: Some("racy"),
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
    dat3m: Dat3mView {
        bases: DAT3M_BASES,
        // Dat3M splits an RMW into a load and a store: acquire on the load, release on
        // the store (opencl.cat: `Acq = (ACQ | SC | ACQ_REL) & (R | F)`).
        read_half: Flags::ACQ,
        write_half: Flags::REL,
        // Dat3M tags a location's init event with its memory region (`dynamic_tag`).
        init_flags: Flags(Flags::SC0.0 | Flags::SC1.0),
    },
};

/// Dat3M's names for OpenCL's sets and relations (the tags of its opencl.cat), in
/// Dat3M's event view only.
const DAT3M_BASES: &[DialectBase] = &[
    base("WI", "Dat3M: memory_scope_work_item", BaseValue::Set(SCOPEWI)),
    base("WG", "Dat3M: memory_scope_work_group", BaseValue::Set(Flags::SCOPEWG)),
    base("DV", "Dat3M: memory_scope_device", BaseValue::Set(Flags::SCOPEQF)),
    base("ALL", "Dat3M: memory_scope_all_svm_devices", BaseValue::Set(Flags::SCOPEDEV)),
    base(
        "GLOBAL",
        "Dat3M: global memory (accesses and initial writes of global locations, fences naming CLK_GLOBAL_MEM_FENCE)",
        BaseValue::AnyOf(&[Flags::SC0, Flags::SEMSC0]),
    ),
    base(
        "LOCAL",
        "Dat3M: local memory (accesses and initial writes of local locations, fences naming CLK_LOCAL_MEM_FENCE)",
        BaseValue::AnyOf(&[Flags::SC1, Flags::SEMSC1]),
    ),
    base(
        "NAL",
        "Dat3M: the initial writes of non-atomic locations (here: no access to it is atomic)",
        BaseValue::InitWithout(Flags::A),
    ),
    base(
        "ACQ_REL",
        "Dat3M: acq_rel (and seq_cst) operations",
        BaseValue::Set(Flags(Flags::ACQ.0 | Flags::REL.0)),
    ),
    base("sdv", "Dat3M: same device", BaseValue::SameLevel(2)),
];

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
