//! The PTX dialect: NVIDIA's PTX litmus tests in Dat3M's syntax, headed `PTX`
//! (docs/ptx.md), judged by NVIDIA's PTX memory model.

pub mod ast;
pub mod syntax;

pub use syntax::{is_ptx, parse_ptx};
