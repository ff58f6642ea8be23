//! The PTX dialect: NVIDIA's PTX litmus tests in Dat3M's syntax, headed `PTX`
//! (docs/ptx.md), judged by NVIDIA's PTX memory model (ptx.cat, PTX 7.5 with proxies;
//! ptx-v6.0.cat).

pub mod ast;
pub mod lower;
pub mod syntax;
pub mod translate;

pub use lower::lower_ptx;
pub use syntax::{is_ptx, parse_ptx};

use vkherd_model::{
    AsmoShape, BarrierWait, BaseValue, BundledModel, Dialect, DialectBase, Flags, LackedBase, Rel,
    ScopeLevel, StaticRel, StaticSet, Statics,
};

/// The cat files of its bundled models.
pub const MODEL_FILES: &[(&str, &str)] = &[
    ("ptx.cat", include_str!("models/ptx.cat")),
    ("ptx-v6.0.cat", include_str!("models/ptx-v6.0.cat")),
];

// PTX's own flag bits (they mean what its bases say, to its tests only).
/// `fence.sc` (the base set `SC`).
pub const PTX_SC: Flags = Flags(1 << 32);
/// Accesses through the generic proxy (`ld st atom red`).
pub const GEN: Flags = Flags(1 << 33);
/// Accesses through the surface proxy (`suld sust suatom sured`).
pub const SUR: Flags = Flags(1 << 34);
/// Accesses through the texture proxy (`tld`).
pub const TEX: Flags = Flags(1 << 35);
/// Accesses through the constant proxy (`cold`).
pub const CON: Flags = Flags(1 << 36);
/// `fence.proxy.generic`.
pub const FGEN: Flags = Flags(1 << 37);
/// `fence.proxy.surface`.
pub const FSUR: Flags = Flags(1 << 38);
/// `fence.proxy.texture`.
pub const FTEX: Flags = Flags(1 << 39);
/// `fence.proxy.constant`.
pub const FCON: Flags = Flags(1 << 40);
/// `fence.proxy.alias`.
pub const FALIAS: Flags = Flags(1 << 41);
/// `bar.cta.arrive`: a barrier that does not wait.
pub const ARRIVE: Flags = Flags(1 << 42);

/// The PTX dialect.
pub static PTX: Dialect = Dialect {
    name: "ptx",
    title: "PTX",
    header: "PTX",
    a_test: "a PTX test",
    claims: is_ptx,
    load,
    // The system is the root: `.sys` reaches every thread.
    levels: &[
        ScopeLevel { key: "cta", member: "CTA", drawn: true },
        ScopeLevel { key: "gpu", member: "GPU", drawn: true },
    ],
    invocation: "thread",
    root: "system",
    barrier_level: 0,
    bases: BASES,
    lacks: LACKS,
    models: &[
        BundledModel {
            name: "ptx",
            variants: &[],
            file: "ptx.cat",
            doc: "NVIDIA's PTX memory model with proxies (PTX ISA 7.5, mixed-proxy Alloy), default for PTX tests",
            summary: Some("NVIDIA's PTX memory model with proxies (PTX 7.5), cat engine; the default for PTX tests"),
            hand_written_twin: false,
            race_flag: None,
        },
        BundledModel {
            name: "ptx-v6.0",
            variants: &[],
            file: "ptx-v6.0.cat",
            doc: "NVIDIA's PTX memory model of PTX ISA 6.0 (ASPLOS 2019 Alloy; no proxies)",
            summary: Some("NVIDIA's PTX 6.0 memory model (no proxies), cat engine"),
            hand_written_twin: false,
            race_flag: None,
        },
    ],
    model_files: MODEL_FILES,
    ordered_writes,
    asmo_shape: AsmoShape::Orientation,
    ordered_write: |f| f.has(Flags::W) || f.has(Flags::F | PTX_SC),
    barrier_agreement: Flags::SCOPEWG,
    barrier_arrive: ARRIVE,
    barrier_wait: BarrierWait::Path,
    runs_on_device: false,
    translations: &[translate::VULKAN_TO_PTX, translate::PTX_TO_VULKAN],
    dat3m: vkherd_model::Dat3mView::NONE,
};

fn load(source: &str) -> Result<vkherd_model::Program, vkherd_litmus::Diagnostic> {
    lower_ptx(&parse_ptx(source)?)
}

/// The pairs `asmo` orients (docs/ptx.md, "The enumerated order"): D_W, every pair of
/// distinct writes to one physical location in each other's scope, and D_F, every pair
/// of distinct fence.sc events in each other's scope. "In each other's scope" is the
/// models' `incl & incl^-1`, `incl = sthd | (SCOPEWG * EV) & swg | (SCOPEQF * EV) & sqf |
/// SCOPEDEV * EV`. Both models read asmo only inside these pairs (`co_ms = asmo & (W * W)
/// & sloc & strong_r`, `sc = asmo & (F&SC * F&SC) & strong_r`, strong_r within
/// `incl & incl^-1`), and ptx's morally strong writes are a subset of D_W, so one domain
/// serves both (ptx sees some orientations more than once: the same states, larger
/// counts).
fn ordered_writes(s: &Statics) -> Rel {
    let n = s.n();
    let ev = s.set(StaticSet::Ev);
    let incl = s
        .rel(StaticRel::Sthd)
        .union(&Rel::cross(&s.flag_set(Flags::SCOPEWG), ev).inter(s.same_level(0)))
        .union(&Rel::cross(&s.flag_set(Flags::SCOPEQF), ev).inter(s.same_level(1)))
        .union(&Rel::cross(&s.flag_set(Flags::SCOPEDEV), ev));
    let mutual = incl.inter(&incl.inv());
    let w = s.set(StaticSet::W);
    let fsc = s.flag_set(PTX_SC).inter(s.set(StaticSet::F));
    let writes = s.rel(StaticRel::Sloc).restrict(w, w);
    let fences = Rel::cross(&fsc, &fsc);
    writes
        .union(&fences)
        .inter(&mutual)
        .minus(&Rel::identity(n))
}

/// The base sets and relations of PTX tests (docs/ptx.md, the models' headers).
/// What PTX has in place of an atomic attribute (docs/ptx.md, "Base names").
const STRONG: &str = "PTX has no atomic attribute: strong operations play its part, the accesses qualified with a scope, `(R | W) & (SCOPEWG | SCOPEQF | SCOPEDEV)`, and ptx.cat's `strong_r` relates the morally strong pairs (docs/ptx.md)";

/// The shared names PTX tests never produce: `A`, and `ATOM`, its name in Dat3M's event
/// view (docs/ptx.md, "Base names"; checked empty on the corpus by
/// crates/vkherd/tests/cli_edges.rs).
const LACKS: &[LackedBase] = &[
    LackedBase {
        name: "A",
        instead: STRONG,
    },
    LackedBase {
        name: "ATOM",
        instead: STRONG,
    },
];

const BASES: &[DialectBase] = &[
    base(
        "SCOPEWG",
        "operations qualified .cta, and barriers",
        BaseValue::Set(Flags::SCOPEWG),
    ),
    base(
        "SCOPEQF",
        "operations qualified .gpu",
        BaseValue::Set(Flags::SCOPEQF),
    ),
    base(
        "SCOPEDEV",
        "operations qualified .sys",
        BaseValue::Set(Flags::SCOPEDEV),
    ),
    base("SC", "fence.sc", BaseValue::Set(PTX_SC)),
    base(
        "ARRIVE",
        "bar.cta.arrive (barriers that do not wait)",
        BaseValue::Set(ARRIVE),
    ),
    base(
        "GEN",
        "accesses through the generic proxy (ld st atom red)",
        BaseValue::Set(GEN),
    ),
    base(
        "SUR",
        "accesses through the surface proxy (suld sust suatom sured)",
        BaseValue::Set(SUR),
    ),
    base(
        "TEX",
        "accesses through the texture proxy (tld)",
        BaseValue::Set(TEX),
    ),
    base(
        "CON",
        "accesses through the constant proxy (cold)",
        BaseValue::Set(CON),
    ),
    base("FGEN", "fence.proxy.generic", BaseValue::Set(FGEN)),
    base("FSUR", "fence.proxy.surface", BaseValue::Set(FSUR)),
    base("FTEX", "fence.proxy.texture", BaseValue::Set(FTEX)),
    base("FCON", "fence.proxy.constant", BaseValue::Set(FCON)),
    base("FALIAS", "fence.proxy.alias", BaseValue::Set(FALIAS)),
    base(
        "swg",
        "same CTA (same gpu and cta)",
        BaseValue::SameLevel(0),
    ),
    base("sqf", "same GPU", BaseValue::SameLevel(1)),
    DialectBase::ADDR,
    DialectBase::DATA,
    DialectBase::CTRL,
];

const fn base(name: &'static str, doc: &'static str, value: BaseValue) -> DialectBase {
    DialectBase { name, doc, value }
}
