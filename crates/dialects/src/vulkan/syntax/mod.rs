//! nom parser for the `.litmus` format (docs/litmus-format.md).
//!
//! Comments are blanked out first (byte for byte, so offsets need no mapping); then the
//! sections are parsed in file order, and the first problem becomes the [`Diagnostic`].
//!
//! - [`lex`]: tokens and the error type; [`comments`]: `(* ... *)`
//! - [`init`]: the init and ssw blocks; [`table`]: thread headers and rows
//! - [`instr`] and [`attrs`]: one cell's instructions; [`cond`]: everything after the table

mod attrs;
mod instr;
mod table;

use crate::vulkan::ast::{FinalCond, LitmusTest};
use vkherd_litmus::error::span_at;
use vkherd_litmus::syntax::lex::{PResult, Src};
use vkherd_litmus::syntax::{comments, cond, header_of, init};
use vkherd_litmus::{cond_to_string, Diagnostic};

/// The header words of the dialect.
const LANGUAGE_WORDS: [&str; 3] = ["VULKAN", "Vulkan", "vulkan"];

/// True if the header's language word is `VULKAN` (also `Vulkan`, `vulkan`).
pub fn claims(source: &str) -> bool {
    let stripped = comments::strip(source);
    let text = stripped.text.trim_start().trim_start_matches('\u{feff}');
    let word = text.split(char::is_whitespace).next().unwrap_or("");
    LANGUAGE_WORDS.contains(&word)
}

/// Parses a whole `.litmus` file.
pub fn parse_litmus(source: &str) -> Result<LitmusTest, Diagnostic> {
    let stripped = comments::strip(source);
    let src = Src::new(source, &stripped.text);
    let result = file(&src).map(|(_, t)| t).map_err(|e| src.diagnostic(e));
    // An unclosed comment blanks the rest of the file: report it unless an earlier
    // problem was found before it.
    match (result, stripped.unterminated) {
        (Err(e), Some(at)) if e.span.offset < at => Err(e),
        (_, Some(at)) => Err(Diagnostic::new(
            span_at(source, at, 2),
            "unterminated comment `(*`: expected a matching `*)`",
        )),
        (result, None) => result,
    }
}

fn file<'a>(src: &Src<'a>) -> PResult<'a, LitmusTest> {
    let (i, (name, description)) = header(src.text)?;
    let (i, init) = init::init_block(src, i)?;
    let (i, ssw) = init::ssw_block(src, i)?;
    let (i, (threads, code)) = table::table(src, i)?;
    let (i, tail) = cond::tail(src, i)?;
    let condition = tail.condition.map(|(quantifier, cond)| FinalCond {
        quantifier,
        text: cond_to_string(&cond),
        cond,
    });
    let test = LitmusTest {
        name: name.to_string(),
        description: description.to_string(),
        init,
        ssw,
        threads,
        code,
        locations: tail.locations,
        filter: tail.filter,
        condition,
    };
    Ok((i, test))
}

/// `VULKAN NAME` on the first line, then the description.
fn header(i: &str) -> PResult<'_, (&str, &str)> {
    header_of(i, LANGUAGE_WORDS)
}

#[cfg(test)]
mod tests;
