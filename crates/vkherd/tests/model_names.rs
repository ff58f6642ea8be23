//! Model names, the one cache of bundled models, and the ways a model is refused
//! (crates/vkherd/src/models.rs).

use std::sync::Arc;
use vkherd::models::*;
use vkherd_model::ModelOptions;

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// A model file of `text` in a fresh temporary directory.
fn model_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("vkherd-models-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// `NAME[+VARIANT...]` is read by one parser for `--model`, `diff` and
/// `distinguish`: the same spec gives the same choice whichever way its variants come.
#[test]
fn model_names_parse_in_one_place() {
    let parsed = |s: &str| ModelName::parse(s);
    assert_eq!(
        parsed("vulkan+mmra+no-chains"),
        ModelName {
            base: Base::Bundled("vulkan".into()),
            variants: strings(&["mmra", "no-chains"]),
        }
    );
    assert_eq!(
        parsed("hand:vulkan-2024").base,
        Base::Hand("vulkan-2024".into())
    );
    assert_eq!(parsed("cat:opencl+rc11-sc").bundled(), Some("opencl"));
    assert_eq!(parsed("my.cat+x").base, Base::File("my.cat".into()));
    // An existing file is taken whole, `+` and all.
    let plus = model_file("a+b.cat", "let co = po\nacyclic po | rf\n");
    let whole = plus.to_str().unwrap();
    assert_eq!(parsed(whole).base, Base::File(whole.into()));
    assert!(parsed(whole).variants.is_empty());
    assert!(resolve(whole, &[], false).is_ok());
    // Only `vulkan` and `vulkan-2024` with the engine's switches run on it by hand.
    assert_eq!(
        parsed("vulkan+mmra").on_hand_engine().map(|n| n.base),
        Some(Base::Hand("vulkan".into()))
    );
    assert_eq!(parsed("vulkan+rc11-sc").on_hand_engine(), None);
    assert_eq!(parsed("cat:vulkan").on_hand_engine(), None);
    // A spec's variants and `--variant`'s give the same model and name.
    let a = resolve("opencl+rc11-sc", &[], false).unwrap();
    let b = resolve("opencl", &strings(&["rc11-sc"]), false).unwrap();
    assert_eq!((&a.name, &a.variants), (&b.name, &b.variants));
    assert_eq!(a.name, "opencl+rc11-sc");
    assert_eq!(a.spec.variants_on(), b.spec.variants_on());
}

/// The engine crate and the library share one cache of bundled models: each is
/// compiled once, whoever asks and in whatever order the variants come.
#[test]
fn bundled_models_are_compiled_once_for_the_engine_and_the_library() {
    let engine = vkherd_enumerate::bundled_model(&ModelOptions {
        mmra: true,
        chains: false,
        ..ModelOptions::default()
    });
    let library = bundled("vulkan", &strings(&["no-chains", "mmra"]));
    assert!(Arc::ptr_eq(&engine, &library));
    assert!(Arc::ptr_eq(
        &bundled("opencl", &[]),
        &bundled("opencl", &[])
    ));
    let ModelSpec::Cat { model, .. } = resolve("cat:vulkan", &[], false).unwrap().spec else {
        panic!("cat:vulkan is a cat model");
    };
    assert!(Arc::ptr_eq(&model, &bundled("vulkan", &[])));
}

/// Each way a model is refused is its kind; the CLI prints it as it is worded here
/// (tests/models_cli.rs checks the same texts on the command line).
#[test]
fn refused_models_give_their_kind() {
    let e = resolve("hand:opencl", &[], false).unwrap_err();
    assert!(matches!(&e, ModelError::UnknownHandModel { name } if name == "hand:opencl"));
    assert_eq!(
        e.to_string(),
        "error: unknown model `hand:opencl`: the hand-written engine runs hand:vulkan and hand:vulkan-2024"
    );

    let e = resolve("hand:vulkan", &strings(&["rc11-sc"]), false).unwrap_err();
    assert!(matches!(e, ModelError::HandVariant { .. }), "{e:?}");
    assert!(e
        .to_string()
        .starts_with("error: model hand:vulkan has only the variants mmra and no-chains"));

    let e = resolve("vulkan", &strings(&["nope"]), false).unwrap_err();
    assert!(
        matches!(&e, ModelError::NoSuchVariant { variant, .. } if variant == "nope"),
        "{e:?}"
    );
    assert!(e
        .to_string()
        .starts_with("error: model vulkan has no variant `nope` (it tests: "));

    let e = by_dialect(&strings(&["frob"]), false).unwrap_err();
    assert!(
        matches!(&e, ModelError::UnknownVariant(u) if u.variant == "frob"),
        "{e:?}"
    );
    assert!(e
        .to_string()
        .starts_with("error: no model has the variant `frob`"));

    let missing = model_file("absent", "").with_file_name("absent.cat");
    let e = resolve(missing.to_str().unwrap(), &[], false).unwrap_err();
    assert!(matches!(e, ModelError::Unreadable { .. }), "{e:?}");
    assert!(
        e.to_string()
            .contains("(expected a .cat file or one of: vulkan, "),
        "{e}"
    );

    let bad = model_file("bad.cat", "\"bad\"\nacyclic po |\n");
    let e = resolve(bad.to_str().unwrap(), &[], false).unwrap_err();
    assert!(
        matches!(&e, ModelError::Cat(c) if !c.file.is_empty()),
        "{e:?}"
    );
    assert!(e.to_string().contains("bad.cat:3:1"), "{e}");

    let no_co = model_file("noco.cat", "acyclic po | rf");
    let e = resolve(no_co.to_str().unwrap(), &[], false).unwrap_err();
    assert!(
        matches!(
            e,
            ModelError::Coherence {
                problem: CoProblem::Missing,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(
        e.to_string()
            .starts_with("error: the model defines neither `co`"),
        "{e}"
    );
    assert!(e.to_string().contains("noco.cat:1:1"), "{e}");

    let set_co = model_file("setco.cat", "let co = W\nacyclic po | rf");
    let e = resolve(set_co.to_str().unwrap(), &[], false).unwrap_err();
    assert!(
        matches!(
            e,
            ModelError::Coherence {
                problem: CoProblem::NotARelation,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(
        e.to_string()
            .starts_with("error: the model's `co` is a set: expected a relation"),
        "{e}"
    );
}
