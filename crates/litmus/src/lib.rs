//! The syntax kit of herd-style litmus dialects: spans and diagnostics, the syntax trees
//! every dialect shares (operands, conditions, init declarations), MMRA tags, size limits,
//! and the parsers of the parts every dialect writes alike ([`syntax`]: comments, tokens,
//! the init block, the header line, conditions). Each dialect's own parser and syntax tree
//! live in its folder of the `vkherd-dialects` crate.

pub mod ast;
pub mod error;
pub mod limits;
pub mod mmra;
pub mod span;
pub mod syntax;

pub use ast::*;
pub use error::{span_at, span_of, Diagnostic, Warning};
pub use mmra::{MmraTag, MmraTags};
pub use syntax::cond::cond_to_string;
