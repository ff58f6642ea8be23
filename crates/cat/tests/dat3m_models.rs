//! Dat3M's own cat models (third_party/dat3m/models, unchanged): vulkan.cat, opencl.cat
//! and stdlib.cat compile in Dat3M's event view (docs/models.md, "Dat3M's event view"),
//! chosen because they name bases only that view has; the PTX models stop at a name the
//! view does not have, with a located error that names vkherd's equivalent.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;
use vkherd_cat::{ErrorKind, Model, Source};

fn compile(file: &str) -> (Result<Model, vkherd_cat::CatError>, String) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../third_party/dat3m/models")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let src = Source {
        name: path.display().to_string(),
        text: Arc::from(text.as_str()),
    };
    (Model::compile(src, &BTreeSet::new()), text)
}

#[test]
fn dat3m_vulkan_opencl_and_stdlib_compile_in_the_view() {
    for file in ["vulkan.cat", "opencl.cat", "stdlib.cat"] {
        let (m, _) = compile(file);
        let m = m.unwrap_or_else(|e| panic!("{file}: {}", e.render()));
        assert!(m.dat3m_view(), "{file} runs in Dat3M's event view");
        // Dat3M's stdlib.cat is read first: its `rmw` and its checks are the model's.
        assert!(
            m.named("rmw").is_some(),
            "{file}: rmw from Dat3M's stdlib.cat"
        );
        let names: Vec<&str> = m.checks().iter().map(|c| c.name.as_str()).collect();
        assert!(names.contains(&"undefined-behavior"), "{file}: {names:?}");
        // `co` is the view's base when the model does not define it.
        assert!(m.named("co").is_some(), "{file}");
    }
    let (m, _) = compile("vulkan.cat");
    let m = m.unwrap();
    let names: Vec<&str> = m.checks().iter().map(|c| c.name.as_str()).collect();
    for check in ["consistency-cycle", "consistency-rf", "atomic", "racy"] {
        assert!(names.contains(&check), "{names:?}");
    }
}

/// A model in vkherd's names stays out of the view: the bundled ones, and a herd7-style
/// model that defines `co` itself.
#[test]
fn models_in_vkherd_names_are_not_in_the_view() {
    for name in ["vulkan", "opencl", "ptx"] {
        assert!(!Model::bundled(name, &[]).unwrap().dat3m_view(), "{name}");
    }
    let src = Source {
        name: "m.cat".into(),
        text: Arc::from("let co = asmo\nacyclic po | rf | co as c\n"),
    };
    assert!(!Model::compile(src, &BTreeSet::new()).unwrap().dat3m_view());
}

/// In the view, the search's `asmo` is not a base: the error says to read `co`.
#[test]
fn asmo_is_refused_in_the_view_with_the_reason() {
    let src = Source {
        name: "m.cat".into(),
        text: Arc::from("acyclic co | rf as c\nacyclic asmo as d\n"),
    };
    let e = Model::compile(src, &BTreeSet::new()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::UnknownName);
    let message = e.render();
    assert!(message.contains("m.cat:2:9"), "{message}");
    assert!(message.contains("expected `co`"), "{message}");
}

#[test]
fn dat3m_ptx_models_stop_at_a_name_the_view_lacks_with_a_hint() {
    // `let sync_barrier = syncbar & scta`: `syncbar` is the view's, `scta` is not.
    for file in ["ptx-v6.0.cat", "ptx-v7.5.cat"] {
        let (m, text) = compile(file);
        let e = m
            .err()
            .unwrap_or_else(|| panic!("{file} compiled: update this test"));
        assert_eq!(e.kind, ErrorKind::UnknownName, "{}", e.render());
        let s = e.diagnostic.span;
        assert_eq!(&text[s.offset..s.offset + s.len], "scta", "{}", e.render());
        assert!(e.render().contains("`swg` here"), "{}", e.render());
    }
}

/// Dat3M's own models are each for their own dialect only.
#[test]
fn dat3m_models_are_for_their_own_dialect_only() {
    for (file, dialect) in [("vulkan.cat", "vulkan"), ("opencl.cat", "opencl")] {
        let path = format!(
            "{}/../../third_party/dat3m/models/{file}",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).unwrap();
        let src = Source {
            name: path,
            text: Arc::from(text),
        };
        let m = Model::compile(src, &Default::default()).unwrap();
        for d in vkherd_dialects::ALL {
            assert_eq!(
                m.foreign_bases(d).is_empty(),
                d.name == dialect,
                "{file} for {}",
                d.name
            );
        }
    }
}

/// vulkan.cat, compiled from `text` in the view (as `--model FILE` compiles it).
fn compile_text(text: &str) -> Model {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../third_party/dat3m/models/variant.cat");
    let src = Source {
        name: path.display().to_string(),
        text: Arc::from(text),
    };
    Model::compile(src, &BTreeSet::new()).unwrap_or_else(|e| panic!("{}", e.render()))
}

/// vulkan.cat's `consistency-cycle` (locord, rf, fr and `asmo = co & mutordatom`) and
/// `atomic` give the view's coherence core on the locations whose writes `mutordatom`
/// relates (vkherd_cat::shortcuts, module view): the guard is vulkan.cat's
/// `mutordatom`, `po_loc` is in the core, `fr_ww` is not.
#[test]
fn dat3m_vulkan_has_the_view_core_guarded_by_mutordatom() {
    use vkherd_cat::shortcuts::{Form, PoLoc};
    let (m, _) = compile("vulkan.cat");
    let m = m.unwrap();
    let core = m.shortcuts().core.expect("vulkan.cat's view core");
    assert_eq!(core.form, Form::View);
    assert_eq!(core.po_loc, PoLoc::Always);
    assert!(!core.fr_ww);
    assert_eq!(core.guard, m.named("mutordatom"));
}

/// Each of the conditions the view's core needs, removed from vulkan.cat in turn: the
/// model then gets no core. The lines are vulkan.cat's own, changed as each case says.
#[test]
fn dat3m_vulkan_variants_without_the_conditions_get_no_view_core() {
    let (_, text) = compile("vulkan.cat");
    let cases = [
        // No RMW atomicity: two RMWs may read one write.
        ("empty rmw & (fre; (asmo & ext)) as atomic", ""),
        // Atomicity between work-groups only: not within the check.
        (
            "empty rmw & (fre; (asmo & ext)) as atomic",
            "empty rmw & (fre; (asmo & ext & ~swg)) as atomic",
        ),
        // The check a flag: it makes no candidate inconsistent.
        (
            "acyclic (locord | rf | fr | asmo) as consistency-cycle",
            "flag ~acyclic (locord | rf | fr | asmo) as consistency-cycle",
        ),
        // fr from the initial write left out of the cycle.
        (
            "acyclic (locord | rf | fr | asmo) as consistency-cycle",
            "acyclic (locord | rf | ((rf & locord)^-1 ; (W * W) & locord) | (rf^-1; asmo) | asmo) as consistency-cycle",
        ),
        // locord without program order (the internal case and the RMW halves).
        (
            "(  (hb & int & vloc) |",
            "(  (hb & int & vloc & ext) |",
        ),
    ];
    for (from, to) in cases {
        assert!(text.contains(from), "{from}");
        let m = compile_text(&text.replace(from, to));
        assert!(m.dat3m_view());
        assert_eq!(m.shortcuts().core, None, "{from} -> {to}");
    }
}

/// opencl.cat's coherence is C11's, `irreflexive coh(ghb)` and `coh(lhb)`, with `O-Rf`
/// and `atomic`: the view's C11 core (vkherd_cat::shortcuts, module view_c11), one
/// triple per coherence check, `A = B = dynamic_tag(~NAL)`.
#[test]
fn dat3m_opencl_has_the_view_c11_core() {
    use vkherd_cat::shortcuts::{Form, PoLoc};
    let (m, _) = compile("opencl.cat");
    let m = m.unwrap();
    let core = m.shortcuts().core.expect("opencl.cat's view core");
    assert_eq!(core.form, Form::ViewC11);
    assert_eq!(core.po_loc, PoLoc::Always);
    assert!(!core.fr_ww);
    let triples = &m.shortcuts().view_c11;
    let (ghb, lhb) = (m.named("ghb").unwrap(), m.named("lhb").unwrap());
    let hs: Vec<_> = triples.iter().map(|t| t.2).collect();
    assert_eq!(hs, [ghb, lhb]);
    assert!(triples.iter().all(|t| t.0.is_some() && t.0 == t.1));
}

/// opencl.cat with a condition of the C11 core broken gets none.
#[test]
fn dat3m_opencl_variants_without_the_conditions_get_no_view_core() {
    let (_, text) = compile("opencl.cat");
    let cases = [
        ("empty rmw & (fre; coe) as atomic", ""),
        ("irreflexive rf; (ghb | lhb) as O-Rf", ""),
        (
            "irreflexive coh(ghb) as O-CohG\nirreflexive coh(lhb) as O-CohL",
            "flag ~irreflexive coh(ghb) as O-CohG\nflag ~irreflexive coh(lhb) as O-CohL",
        ),
        (
            "let coh(hb) = (rf^-1)?; mo; rf?; hb",
            "let coh(hb) = (rf^-1)?; mo; hb",
        ),
    ];
    for (from, to) in cases {
        assert!(text.contains(from), "{from}");
        let m = compile_text(&text.replace(from, to));
        assert!(m.dat3m_view());
        assert_eq!(m.shortcuts().core, None, "{from} -> {to}");
    }
}
