//! The OpenCL dialect: herd's C-like `.litmus` files headed `OPENCL` (docs/opencl.md),
//! judged by the SPIR-V memory model for OpenCL (opencl.cat, seed 004).

pub mod ast;
pub mod lower;
pub mod syntax;

pub use lower::lower_opencl;
pub use syntax::{is_opencl, parse_opencl};

/// The cat files of its bundled models.
pub const MODEL_FILES: &[(&str, &str)] = &[("opencl.cat", include_str!("models/opencl.cat"))];
