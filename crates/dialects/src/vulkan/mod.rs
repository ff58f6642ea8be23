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
