//! Which search shortcuts the analysis of `vkherd_cat::shortcuts` grants each model: the
//! bundled ones with every variant, and small models written for the purpose, some that
//! satisfy the conditions (written in other ways than the bundled files) and some that
//! do not. The search's answers with and without the shortcuts are compared in
//! crates/enumerate/tests/shortcuts.rs and crates/vkherd/tests/differential.rs.

use std::collections::BTreeSet;
use std::sync::Arc;
use vkherd_cat::shortcuts::{CoreProof, Form, PoLoc};
use vkherd_cat::{Model, Source};

fn compile(text: &str) -> Model {
    Model::compile(
        Source {
            name: "m.cat".into(),
            text: Arc::from(text),
        },
        &BTreeSet::new(),
    )
    .unwrap_or_else(|e| panic!("{}", e.render()))
}

fn bundled(name: &str, variants: &[&str]) -> Model {
    let v: Vec<String> = variants.iter().map(|s| s.to_string()).collect();
    Model::bundled(name, &v).unwrap()
}

#[test]
fn vulkan_has_the_acyclic_core_with_every_variant() {
    for variants in [
        &[][..],
        &["vulkan-2024"],
        &["no-chains"],
        &["mmra"],
        &["vulkan-2024", "no-chains", "mmra"],
    ] {
        for name in ["vulkan", "vulkan-asserts"] {
            let m = bundled(name, variants);
            let a = m.shortcuts();
            assert_eq!(
                a.core,
                Some(CoreProof {
                    form: Form::Acyclic,
                    po_loc: PoLoc::Always,
                    fr_ww: true,
                    guard: None,
                }),
                "{name} {variants:?}"
            );
            assert!(a.co_by_asmo, "{name} {variants:?}");
        }
    }
}

#[test]
fn opencl_has_c11_coherence_with_every_variant() {
    for variants in [&[][..], &["mmra"], &["rc11-sc"], &["mmra", "rc11-sc"]] {
        let m = bundled("opencl", variants);
        let a = m.shortcuts();
        let core = a.core.unwrap_or_else(|| panic!("{variants:?}"));
        assert_eq!(core.form, Form::C11, "{variants:?}");
        // hbloc holds sb & sloc only per memory region: decided per path combination
        // (under mmra, `(... | (sb & sloc))+` holds it outright).
        match variants.contains(&"mmra") {
            true => assert_eq!(core.po_loc, PoLoc::Always),
            false => assert!(matches!(core.po_loc, PoLoc::WithinLower(_))),
        }
        assert!(a.co_by_asmo, "{variants:?}");
    }
}

/// herd7's SC-per-location written with stdlib.cat's names: form 1.
#[test]
fn herd_sc_per_location_is_recognised() {
    let m = compile(
        r#"include "stdlib.cat"
let co = asmo
let fr = ((rf^-1 ; co) | ([RFINIT] ; loc ; [W])) \ id
acyclic po-loc | rf | co | fr as sc-per-location"#,
    );
    let core = m.shortcuts().core.expect("core");
    assert_eq!(core.form, Form::Acyclic);
    assert_eq!(core.po_loc, PoLoc::Always);
    assert!(m.shortcuts().co_by_asmo);
}

/// Sequential consistency: `acyclic po | rf | co | fr` contains the core as well (less
/// `fr_ww`).
#[test]
fn sc_contains_the_core() {
    let m = compile(
        r#"let co = asmo
let fr = ((rf^-1 ; co) | ([RFINIT] ; sloc ; [W])) \ id
acyclic po | rf | co | fr as sc"#,
    );
    let core = m.shortcuts().core.expect("core");
    assert_eq!(core.form, Form::Acyclic);
    assert_eq!(core.po_loc, PoLoc::Always);
    // `r fr_ww w2` (r reads w1, w1 po w2) is no single edge of the union: it takes
    // `w1 co w2`, which coherence gives but the prover does not derive.
    assert!(!core.fr_ww);
}

/// C11's coherence as RC11 writes it (`irreflexive hb ; eco`), with the RMW axioms.
#[test]
fn rc11_style_coherence_is_recognised() {
    let m = compile(
        r#"let co = asmo
let fr = ((rf^-1 ; co) | ([RFINIT] ; sloc ; [W])) \ id
let eco = (rf | co | fr)+
let hb = (po | rf)+
irreflexive hb ; eco as coherence
irreflexive rf ; co as rmw-1
empty (rf ; [R & W]) & (co ; co) as rmw-2
empty [W] ; co ; [R & W & RFINIT] as rmw-3"#,
    );
    let core = m.shortcuts().core.expect("core");
    assert_eq!(core.form, Form::C11);
    assert_eq!(core.po_loc, PoLoc::Always);
}

/// Models the analysis must not grant the core: each lacks one condition, and for each
/// the search with the core would lose consistent candidates (shown in the enumerate
/// crate's tests for the first).
#[test]
fn models_without_the_core_are_refused() {
    let no_coherence = r#"let co = asmo
acyclic po | rf as causality"#;
    // Coherence without the RMW atomicity axioms: two RMWs may read one write.
    let no_atomicity = r#"let co = asmo
let fr = ((rf^-1 ; co) | ([RFINIT] ; sloc ; [W])) \ id
let eco = (rf | co | fr)+
irreflexive (po & sloc) ; eco as coherence
irreflexive rf ; co as rmw-1"#;
    // The same checks as flags: they make nothing inconsistent.
    let flags_only = r#"let co = asmo
let fr = ((rf^-1 ; co) | ([RFINIT] ; sloc ; [W])) \ id
flag ~acyclic (po & sloc) | rf | co | fr as incoherent"#;
    // fr without the reads of the initial value.
    let no_init = r#"let co = asmo
let fr = (rf^-1 ; co) \ id
acyclic (po & sloc) | rf | co | fr as coherence"#;
    // The order reversed: asmo^-1 is not asmo.
    let reversed = r#"let co = asmo^-1
let fr = ((rf^-1 ; co) | ([RFINIT] ; sloc ; [W])) \ id
acyclic (po & sloc) | rf | co | fr as coherence"#;
    // Acyclicity of something smaller than rf (a difference with a growing relation).
    let shrinking = r#"let co = asmo
let fr = ((rf^-1 ; co) | ([RFINIT] ; sloc ; [W])) \ id
acyclic (po & sloc) | (rf \ (rf ; rf)) | co | fr as coherence"#;
    for (name, text) in [
        ("no coherence", no_coherence),
        ("no atomicity", no_atomicity),
        ("flags only", flags_only),
        ("no init", no_init),
        ("reversed", reversed),
        ("shrinking", shrinking),
    ] {
        assert_eq!(compile(text).shortcuts().core, None, "{name}");
    }
    // co = asmo^-1 is not known to contain asmo.
    assert!(!compile(reversed).shortcuts().co_by_asmo);
}

/// `po_loc` and `fr_ww` join the acyclic core only when they are within the checked
/// relation; the rest of the core stands without them.
#[test]
fn po_loc_is_optional() {
    let m = compile(
        r#"let co = asmo
let fr = ((rf^-1 ; co) | ([RFINIT] ; sloc ; [W])) \ id
acyclic rf | co | fr as coherence"#,
    );
    let core = m.shortcuts().core.expect("core");
    assert_eq!(core.form, Form::Acyclic);
    assert!(!core.fr_ww);
    // Not shown for every execution: decided per path combination on the lower bound,
    // where it fails (rf | co | fr has no static pairs).
    assert!(matches!(core.po_loc, PoLoc::WithinLower(_)));
}

/// `co` that is not acyclic by any check is not read off asmo.
#[test]
fn co_by_asmo_needs_an_acyclic_co() {
    let m = compile(
        r#"let co = asmo | po
acyclic rf as r"#,
    );
    assert!(!m.shortcuts().co_by_asmo);
    let m = compile(
        r#"let co = (asmo | (po & sloc & (W * W)))+
acyclic asmo | (po & sloc & (W * W)) as c"#,
    );
    assert!(m.shortcuts().co_by_asmo);
}

/// ptx-v6.0.cat's SC-per-location is `acyclic strong(com) | po_loc`: the core where both
/// ends are morally strong (`strong_r`), so it holds on the locations whose accesses are
/// pairwise morally strong (decided per path combination). ptx.cat states coherence
/// through causality (`irreflexive (co | fr) ; cause` with co the closure of the strong
/// asmo), a form the analysis does not recognise: no core.
#[test]
fn ptx_v6_has_the_core_where_accesses_are_morally_strong() {
    let m = bundled("ptx-v6.0", &[]);
    let core = m.shortcuts().core.expect("core");
    assert_eq!(core.form, Form::Acyclic);
    assert_eq!(core.po_loc, PoLoc::Always);
    assert!(!core.fr_ww);
    let guard = core.guard.expect("guarded");
    let strong_r = m
        .definitions()
        .iter()
        .find(|d| d.0 == "strong_r")
        .map(|d| d.1)
        .expect("strong_r");
    assert_eq!(guard, strong_r);
    assert_eq!(bundled("ptx", &[]).shortcuts().core, None);
}

/// A static guard must cover every term of the core: under `sthd` the core holds where
/// a location's accesses are all of one thread; with `rf` under `sthd` and `co` under
/// `sref`, neither guard covers both (the prover relates neither to the other), and the
/// model gets no core.
#[test]
fn a_guard_must_cover_every_term() {
    let m = compile(
        r#"let co = asmo
let fr = ((rf^-1 ; co) | ([RFINIT] ; sloc ; [W])) \ id
acyclic ((po & sloc) | rf | co | fr) & sthd as per-thread"#,
    );
    let core = m.shortcuts().core.expect("core");
    let guard = core.guard.expect("guarded");
    assert!(matches!(
        m.graph().node(guard).op,
        vkherd_cat::ir::Op::Base(vkherd_cat::BaseName::Sthd)
    ));
    let m = compile(
        r#"let co = asmo
let fr = ((rf^-1 ; co) | ([RFINIT] ; sloc ; [W])) \ id
acyclic (po & sloc) | (rf & sthd) | (co & sref) | fr as mixed"#,
    );
    assert_eq!(m.shortcuts().core, None);
}
