//! The Vulkan dialect: `.litmus` files headed `VULKAN` (docs/litmus-format.md) and the
//! Khronos reference suite's `.test` files (docs/khronos.md), judged by the Vulkan memory
//! model (vulkan.cat, transcribed from the Khronos Alloy model).

pub mod ast;
pub mod khronos;
pub mod lower;
pub mod syntax;
pub mod validate;

pub use lower::lower_litmus;
pub use syntax::parse_litmus;

/// The cat files of its bundled models.
pub const MODEL_FILES: &[(&str, &str)] = &[
    ("vulkan.cat", include_str!("models/vulkan.cat")),
    (
        "vulkan-asserts.cat",
        include_str!("models/vulkan-asserts.cat"),
    ),
];

use vkherd_model::{
    AsmoShape, BarrierWait, BaseValue, BundledModel, Dat3mView, Dialect, DialectBase, Flags, Rel,
    ScopeLevel, StaticRel, StaticSet, Statics,
};

/// The Vulkan dialect.
pub static VULKAN: Dialect = Dialect {
    name: "vulkan",
    title: "Vulkan",
    header: "VULKAN",
    a_test: "a Vulkan test",
    claims: syntax::claims,
    load,
    levels: &[
        ScopeLevel { key: "sg", member: "subgroup", drawn: true },
        ScopeLevel { key: "wg", member: "workgroup", drawn: true },
        ScopeLevel { key: "qf", member: "queue family", drawn: true },
    ],
    invocation: "invocation",
    root: "device",
    barrier_level: 1,
    bases: BASES,
    lacks: &[],
    models: &[
        BundledModel {
            name: "vulkan",
            variants: &[],
            file: "vulkan.cat",
            doc: "the Vulkan memory model (spirv.als) with Khronos' 2025 one-directional av/vis inclusion",
            summary: Some("the Vulkan model (spirv.als with the 2025 av/vis inclusion), the bundled vulkan.cat on the cat engine (default)"),
            hand_written_twin: true,
            race_flag: Some("racy"),
        },
        BundledModel {
            name: "vulkan-2024",
            variants: &["vulkan-2024"],
            file: "vulkan.cat",
            doc: "exactly the seed spirv.als (vulkan.cat with variant vulkan-2024)",
            summary: Some("the Vulkan model exactly as the seed spirv.als (vulkan.cat with variant vulkan-2024)"),
            hand_written_twin: true,
            race_flag: Some("racy"),
        },
        BundledModel {
            name: "vulkan-asserts",
            variants: &[],
            file: "vulkan-asserts.cat",
            doc: "vulkan plus the Alloy file's asserts and locordcomplete, as flags",
            summary: None,
            hand_written_twin: true,
            race_flag: Some("racy"),
        },
    ],
    model_files: MODEL_FILES,
    asmo_shape: AsmoShape::ExactPairs,
    ordered_writes,
    ordered_write: |f| f.has(Flags::A | Flags::W),
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
    runs_on_device: true,
    translations: &[],
    dat3m: Dat3mView {
        bases: DAT3M_BASES,
        // Dat3M splits an RMW into a load and a store: acquire and visibility on the
        // load, release and availability on the store (Alloy: `ACQ in (R&A)+F`,
        // `REL in (W&A)+F`, `(R&A) in VIS`, `(W&A) in AV`, `SEMAV in REL`,
        // `SEMVIS in ACQ`).
        read_half: Flags(Flags::ACQ.0 | Flags::VIS.0 | Flags::SEMVIS.0),
        write_half: Flags(Flags::REL.0 | Flags::AV.0 | Flags::SEMAV.0),
        init_flags: Flags::NONE,
    },
};

/// Dat3M's names for Vulkan's scope sets (the tags of its vulkan.cat: `SG`, `WG`, `QF`,
/// `DV`), in Dat3M's event view only.
const DAT3M_BASES: &[DialectBase] = &[
    base(
        "SG",
        "Dat3M: subgroup scope",
        BaseValue::Set(Flags::SCOPESG),
    ),
    base(
        "WG",
        "Dat3M: workgroup scope",
        BaseValue::Set(Flags::SCOPEWG),
    ),
    base(
        "QF",
        "Dat3M: queue family scope",
        BaseValue::Set(Flags::SCOPEQF),
    ),
    base("DV", "Dat3M: device scope", BaseValue::Set(Flags::SCOPEDEV)),
];

fn load(source: &str) -> Result<vkherd_model::Program, vkherd_litmus::Diagnostic> {
    lower_litmus(&parse_litmus(source)?)
}

/// The pairs `asmo` orders (spirv.als): the mutordatom pairs of atomic writes, `rai[asmo]
/// = ((A&W)->(A&W)) & mutordatom`, a *scoped* order over atomics only, which may leave
/// writes out of each other's scope unordered.
fn ordered_writes(s: &Statics) -> Rel {
    let aw = s.set(StaticSet::A).inter(s.set(StaticSet::W));
    s.rel(StaticRel::MutOrdAtom).restrict(&aw, &aw)
}

/// The base sets and relations of Vulkan tests (the Alloy model's sets).
const BASES: &[DialectBase] = &[
    base(
        "SC0",
        "accesses to storage class 0",
        BaseValue::Set(Flags::SC0),
    ),
    base(
        "SC1",
        "accesses to storage class 1",
        BaseValue::Set(Flags::SC1),
    ),
    base(
        "SC2",
        "accesses to storage class 2",
        BaseValue::Set(Flags::SC2),
    ),
    base(
        "SC3",
        "accesses to storage class 3",
        BaseValue::Set(Flags::SC3),
    ),
    base(
        "SEMSC0",
        "storage class 0 in the memory semantics",
        BaseValue::Set(Flags::SEMSC0),
    ),
    base(
        "SEMSC1",
        "storage class 1 in the memory semantics",
        BaseValue::Set(Flags::SEMSC1),
    ),
    base(
        "SEMSC2",
        "storage class 2 in the memory semantics",
        BaseValue::Set(Flags::SEMSC2),
    ),
    base(
        "SEMSC3",
        "storage class 3 in the memory semantics",
        BaseValue::Set(Flags::SEMSC3),
    ),
    base("SCOPESG", "subgroup scope", BaseValue::Set(Flags::SCOPESG)),
    base("SCOPEWG", "workgroup scope", BaseValue::Set(Flags::SCOPEWG)),
    base(
        "SCOPEQF",
        "queue family scope",
        BaseValue::Set(Flags::SCOPEQF),
    ),
    base("SCOPEDEV", "device scope", BaseValue::Set(Flags::SCOPEDEV)),
    base(
        "AV",
        "per-instruction availability operations",
        BaseValue::Set(Flags::AV),
    ),
    base(
        "VIS",
        "per-instruction visibility operations",
        BaseValue::Set(Flags::VIS),
    ),
    base(
        "SEMAV",
        "availability in the memory semantics",
        BaseValue::Set(Flags::SEMAV),
    ),
    base(
        "SEMVIS",
        "visibility in the memory semantics",
        BaseValue::Set(Flags::SEMVIS),
    ),
    base(
        "AVDEVICE",
        "availability operations to the device domain",
        BaseValue::Set(Flags::AVDEVICE),
    ),
    base(
        "VISDEVICE",
        "visibility operations to the device domain",
        BaseValue::Set(Flags::VISDEVICE),
    ),
    base(
        "NONPRIV",
        "non-private accesses",
        BaseValue::Set(Flags::NONPRIV),
    ),
    base("ssg", "same subgroup", BaseValue::SameLevel(0)),
    base("swg", "same workgroup", BaseValue::SameLevel(1)),
    base("sqf", "same queue family", BaseValue::SameLevel(2)),
    base(
        "ssw",
        "system-synchronizes-with, from the test's declarations",
        BaseValue::Ssw,
    ),
    DialectBase::ADDR,
    DialectBase::DATA,
    DialectBase::CTRL,
];

const fn base(name: &'static str, doc: &'static str, value: BaseValue) -> DialectBase {
    DialectBase { name, doc, value }
}
