//! Parser for the Khronos `.test` format. (stub: being written)
use crate::{ast::KhronosTest, Diagnostic, Span};

/// Parses a whole `.test` file.
pub fn parse_khronos(source: &str) -> Result<KhronosTest, Diagnostic> {
    let _ = source;
    Err(Diagnostic::new(Span::default(), "not implemented"))
}
