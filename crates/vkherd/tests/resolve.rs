//! Which model judges a test (`ModelChoice::resolve`, crates/vkherd/src/judge.rs).

use vkherd::models::{by_dialect, resolve};
use vkherd_dialects::opencl::OPENCL;
use vkherd_dialects::vulkan::VULKAN;

/// Without `--model`, each dialect gets its own model with the variants it has, and
/// the others are left out with a note; with `--model`, a dialect it is not for is
/// refused.
#[test]
fn each_dialect_resolves_to_its_model_and_a_foreign_one_is_refused() {
    let choice = by_dialect(&[], true).unwrap();
    let vulkan = choice.resolve(&VULKAN).unwrap();
    assert_eq!(
        (vulkan.name(), vulkan.variants()),
        ("vulkan".to_string(), &["no-chains".to_string()][..])
    );
    assert!(vulkan.left_out().is_empty());
    let opencl = choice.resolve(&OPENCL).unwrap();
    assert_eq!(opencl.name(), "opencl");
    assert_eq!(opencl.dialect(), &OPENCL);
    assert_eq!(opencl.left_out(), ["no-chains"]);
    assert_eq!(
        opencl.notes(),
        ["Note: the OpenCL model (opencl), which judges OPENCL tests when no --model is given, has no variant no-chains: this test ran without it"]
    );
    let given = resolve("opencl", &[], false).unwrap();
    let e = given.resolve(&VULKAN).unwrap_err();
    assert_eq!(e.dialect, &VULKAN);
    assert!(e.foreign.contains(&"SC"), "{e:?}");
    assert!(e
        .for_test("MP")
        .starts_with("`MP` is a Vulkan test, and the model opencl is not for Vulkan tests"));
    assert!(given.resolve(&OPENCL).is_ok());
}
