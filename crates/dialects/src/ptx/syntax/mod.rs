//! Parser of NVIDIA PTX litmus tests in Dat3M's dialect (`PTX NAME`; grammar
//! LitmusPTX.g4, meaning VisitorLitmusPTX.java; docs/ptx-syntax-draft.md).
//!
//! Self-contained but for the kit of crate::litmus_parser (tokens, comments, init
//! blocks, the thread table, conditions) and crate::ast's conditions and spans.
//!
//! - [`header`]: `PTX NAME` and the description; [`exec_config`]: `<< ... >>`
//! - [`init`]: the init block; [`table`]: thread headers and rows
//! - [`instr`]: one cell; [`head`]: an opcode's suffixes and their checks;
//!   [`memory`]: loads, stores, `atom`, `red`; [`sync`]: fences and barriers
//! - [`words`]: orders, scopes, proxies, operands
//! - [`tail`]: `locations`, `filter` and the final condition

mod exec_config;
mod head;
mod header;
mod init;
mod instr;
mod memory;
mod sync;
mod table;
mod tail;
mod words;

use crate::ptx::ast::PtxTest;
use vkherd_litmus::error::span_at;
use vkherd_litmus::syntax::comments;
use vkherd_litmus::syntax::lex::{PResult, Src};
use vkherd_litmus::Diagnostic;

/// True if the header's language word is `PTX` (or `ptx`).
pub fn is_ptx(source: &str) -> bool {
    let stripped = comments::strip(source);
    let text = stripped.text.trim_start_matches('\u{feff}').trim_start();
    let word = text.split(char::is_whitespace).next().unwrap_or("");
    header::LANGUAGE_WORDS.contains(&word)
}

/// Parses a whole PTX `.litmus` file.
pub fn parse_ptx(source: &str) -> Result<PtxTest, Diagnostic> {
    let stripped = comments::strip(source);
    // `<< >>` in the description is text, not a launch configuration.
    let from = header::init_start(&stripped.text).unwrap_or(stripped.text.len());
    let (text, unclosed_config) = exec_config::blank(&stripped.text, from);
    let src = Src::new(source, &text);
    let result = file(&src).map(|(_, t)| t).map_err(|e| src.diagnostic(e));
    // What blanks the rest of the file is reported unless a problem was found before it.
    let blanking = [
        stripped
            .unterminated
            .map(|at| (at, 2, "unterminated comment `(*`: expected a matching `*)`")),
        unclosed_config.map(|at| {
            (
                at,
                2,
                "unterminated `<<`: expected a matching `>>` (`<< ... >>` is skipped, as in Dat3M)",
            )
        }),
    ];
    let first = blanking.into_iter().flatten().min_by_key(|&(at, _, _)| at);
    match (result, first) {
        (Err(e), Some((at, _, _))) if e.span.offset < at => Err(e),
        (_, Some((at, len, msg))) => Err(Diagnostic::new(span_at(source, at, len), msg)),
        (result, None) => result,
    }
}

fn file<'a>(src: &Src<'a>) -> PResult<'a, PtxTest> {
    let (i, (name, description)) = header::header(src.text)?;
    let (i, init) = init::init_block(src, i)?;
    let (i, (threads, code)) = table::table(src, i)?;
    let (i, tail) = tail::tail(src, i)?;
    let test = PtxTest {
        name: name.to_string(),
        description: description.to_string(),
        init,
        threads,
        code,
        locations: tail.locations,
        filter: tail.filter,
        condition: tail.condition,
    };
    Ok((i, test))
}

#[cfg(test)]
mod tests;
