//! nom parser for the `.litmus` format (docs/litmus-format.md).
//!
//! Comments are blanked out first (byte for byte, so offsets need no mapping); then the
//! sections are parsed in file order, and the first problem becomes the [`Diagnostic`].
//!
//! - [`lex`]: tokens and the error type; [`comments`]: `(* ... *)`
//! - [`init`]: the init and ssw blocks; [`table`]: thread headers and rows
//! - [`instr`] and [`attrs`]: one cell's instructions; [`cond`]: everything after the table

mod attrs;
mod comments;
mod cond;
mod init;
mod instr;
mod lex;
mod mmra;
mod opencl;
mod table;

pub use cond::cond_to_string;
pub use opencl::parse_opencl;

use crate::ast::{FinalCond, LitmusTest};
use crate::error::span_at;
use crate::Diagnostic;
use lex::{fail, ws, PResult, Src};
use nom::bytes::complete::{take_while, take_while1};
use nom::Parser;

/// True if the header's language word is `OPENCL` (also `OpenCL`, `opencl`): the file is
/// in the OpenCL dialect ([`parse_opencl`]), not the Vulkan one ([`parse_litmus`]).
pub fn is_opencl(source: &str) -> bool {
    let stripped = comments::strip_c(source);
    let text = stripped.text.trim_start().trim_start_matches('\u{feff}');
    let word = text.split(char::is_whitespace).next().unwrap_or("");
    opencl::LANGUAGE_WORDS.contains(&word)
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
    header_of(i, ["VULKAN", "Vulkan", "vulkan"])
}

/// `LANG NAME` on the first line (LANG one of `words`, the dialect's spellings), then the
/// description: everything up to the first `{`, kept trimmed and not tokenised (it may
/// hold quotes and span lines). Shared by both dialects.
fn header_of<'a>(i: &'a str, words: [&str; 3]) -> PResult<'a, (&'a str, &'a str)> {
    let (i, _) = ws(i)?;
    let i = i.trim_start_matches('\u{feff}');
    let expected = format!("the header `{} NAME`", words[0]);
    let not_space = take_while1::<_, _, lex::PErr>(|c: char| !c.is_whitespace());
    let (rest, lang) = lex::expect(i, not_space, "", &expected)?;
    if !lang.starts_with(|c: char| c.is_alphanumeric()) {
        return Err(lex::unexpected(i, &expected));
    }
    if !words.contains(&lang) {
        return fail(
            lang,
            format!(
                "unknown language `{lang}`: expected `{}`, `{}` or `{}` and the test name",
                words[0], words[1], words[2]
            ),
        );
    }
    let (rest, _) = take_while(|c: char| c == ' ' || c == '\t').parse(rest)?;
    let (rest, name) = take_while(|c: char| !c.is_whitespace() && c != '{').parse(rest)?;
    if name.is_empty() {
        return fail(
            name,
            format!("missing test name: expected `{lang} NAME` on the first line"),
        );
    }
    match init_start(rest) {
        Some(at) => Ok((&rest[at..], (name, rest[..at].trim()))),
        None => Err(lex::unexpected_in(
            &rest[rest.len()..],
            " after the description",
            "the init block `{ ... }`",
        )),
    }
}

/// Where the init block starts after the test name: the first `{` outside a quoted
/// string (herd7 writes the description in double quotes, `"a { in prose"`). A quote
/// never closed quotes nothing: its `{` counts as before.
fn init_start(rest: &str) -> Option<usize> {
    let mut from = 0;
    loop {
        let brace = from + rest[from..].find('{')?;
        let Some(open) = rest[from..brace].find('"').map(|k| from + k) else {
            return Some(brace);
        };
        match rest[open + 1..].find('"') {
            Some(k) => from = open + 1 + k + 1,
            None => return Some(brace),
        }
    }
}

#[cfg(test)]
mod tests;
