//! Which models read the syntactic dependencies (`Model::reads_dependencies`): the
//! enumerator computes them only for those.

use std::sync::Arc;
use vkherd_cat::{Model, Source};

/// The PTX models read `dep` (No-Thin-Air), the Vulkan and OpenCL models no
/// dependency; a definition nothing checks still counts (it may be asked for by
/// name), and a model that names none does not.
#[test]
fn which_models_read_dependencies() {
    let bundled = |name: &str| Model::bundled(name, &[]).unwrap().reads_dependencies();
    assert!(bundled("ptx") && bundled("ptx-v6.0"));
    assert!(!bundled("vulkan") && !bundled("vulkan-2024") && !bundled("opencl"));
    let compiled = |text: &str| {
        let src = Source {
            name: "t.cat".into(),
            text: Arc::from(text),
        };
        Model::compile(src, &Default::default())
            .unwrap()
            .reads_dependencies()
    };
    assert!(compiled("let dep = ctrl\nacyclic po | rf as c\n"));
    assert!(compiled("acyclic rf | (addr ; po) as c\n"));
    assert!(compiled(
        "let d = data\nlet e = d ; po\nacyclic rf | e as c\n"
    ));
    assert!(!compiled("let co = asmo\nacyclic po | rf as c\n"));
}
