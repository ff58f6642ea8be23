//! Parsers for Vulkan memory-model litmus tests.
//!
//! - [`parse_litmus`]: the herd-style `.litmus` dialect (docs/litmus-format.md).
//! - [`parse_khronos`]: the Khronos reference suite's `.test` format
//!   (docs/khronos.md).
//!
//! Both return syntax trees ([`ast`]) whose nodes carry [`Span`]s, or a [`Diagnostic`].

pub mod ast;
pub mod error;
pub mod limits;
pub mod validate;

pub use ast::*;
pub use error::{span_at, span_of, Diagnostic};
mod khronos_parser;
mod litmus_parser;

pub use khronos_parser::parse_khronos;
pub use litmus_parser::{cond_to_string, parse_litmus};
