//! nom parser for the `.litmus` format. (stub: being written)
use crate::{ast::LitmusTest, Diagnostic, Span};

/// Parses a whole `.litmus` file.
pub fn parse_litmus(source: &str) -> Result<LitmusTest, Diagnostic> {
    let _ = source;
    Err(Diagnostic::new(Span::default(), "not implemented"))
}
