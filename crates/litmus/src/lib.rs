//! Parsers for Vulkan memory-model litmus tests.
//!
//! - [`parse_litmus`]: the herd-style `.litmus` dialect (docs/litmus-format.md).
//! - [`parse_khronos`]: the Khronos reference suite's `.test` format
//!   (docs/khronos.md).
//! - [`parse_opencl`]: herd's C-like OpenCL dialect (`OPENCL NAME`, docs/opencl.md);
//!   [`is_opencl`] tells the two `.litmus` dialects apart by the header.
//! - [`parse_ptx`]: Dat3M's PTX dialect (`PTX NAME`, docs/ptx-syntax-draft.md), into
//!   [`ptx::ast`]; [`is_ptx`] recognises its header.
//!
//! Both return syntax trees ([`ast`]) whose nodes carry [`Span`]s, or a [`Diagnostic`].

pub mod ast;
pub mod error;
pub mod limits;
pub mod mmra;
pub mod span;
pub mod validate;

pub use ast::*;
pub use error::{span_at, span_of, Diagnostic, Warning};
pub use mmra::{MmraTag, MmraTags};
mod khronos_parser;
mod litmus_parser;
pub mod ptx;

pub use khronos_parser::parse_khronos;
pub use litmus_parser::{cond_to_string, is_opencl, parse_litmus, parse_opencl};
pub use ptx::{is_ptx, parse_ptx};
