//! `PTX NAME` on the first line, then the description up to the init block's `{`.
//!
//! Dat3M's grammar takes any tokens before the `{`; its lexer reads `"..."` as one
//! token, so a quoted description may hold `{`. Text outside quotes may not.

use vkherd_litmus::syntax::lex::{fail, unexpected, unexpected_in, ws, PResult};

pub(super) const LANGUAGE_WORDS: [&str; 2] = ["PTX", "ptx"];

/// Where the init block starts: the first `{` outside `"..."`; or, if there is none,
/// `Err` with the offset of an unclosed `"` or the end of the text.
pub(super) fn init_start(text: &str) -> Result<usize, usize> {
    let mut quote = None;
    for (at, c) in text.char_indices() {
        match (c, quote) {
            ('"', None) => quote = Some(at),
            ('"', Some(_)) => quote = None,
            ('{', None) => return Ok(at),
            _ => {}
        }
    }
    Err(quote.unwrap_or(text.len()))
}

/// The name and the description (trimmed, quotes kept); the input is left at the `{`.
pub(super) fn header(i: &str) -> PResult<'_, (&str, &str)> {
    let (i, _) = ws(i.trim_start_matches('\u{feff}'))?;
    let expected = "the header `PTX NAME`";
    let lang_len = i.find(char::is_whitespace).unwrap_or(i.len());
    let lang = &i[..lang_len];
    if lang.is_empty() || !lang.starts_with(|c: char| c.is_alphanumeric()) {
        return Err(unexpected(i, expected));
    }
    if !LANGUAGE_WORDS.contains(&lang) {
        return fail(
            lang,
            format!("unknown language `{lang}`: expected `PTX` or `ptx` and the test name"),
        );
    }
    let rest = &i[lang_len..];
    let rest = rest.trim_start_matches([' ', '\t']);
    let name_len = rest
        .find(|c: char| c.is_whitespace() || c == '{' || c == '"')
        .unwrap_or(rest.len());
    let (name, rest) = rest.split_at(name_len);
    if name.is_empty() {
        return fail(
            name,
            format!("missing test name: expected `{lang} NAME` on the first line"),
        );
    }
    match init_start(rest) {
        Ok(at) => Ok((&rest[at..], (name, rest[..at].trim()))),
        Err(at) if at < rest.len() => fail(
            &rest[at..at + 1],
            "unterminated `\"` in the description: expected a closing `\"` before the init block",
        ),
        Err(_) => Err(unexpected_in(
            &rest[rest.len()..],
            " after the description",
            "the init block `{ ... }`",
        )),
    }
}
