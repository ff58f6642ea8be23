//! The syntax kit every herd-style dialect shares: comments blanked out byte for byte
//! ([`comments`]), tokens and the error type ([`lex`]), the init and ssw blocks
//! ([`init`]), conditions and the `locations`/`filter` tail ([`cond`]), MMRA tags
//! ([`mmra`]), and the header line ([`header_of`]). Each dialect's own parser (in the
//! `vkherd-dialects` crate) builds on these.

pub mod comments;
pub mod cond;
pub mod init;
pub mod lex;
pub mod mmra;

use lex::{fail, ws, PResult};
use nom::bytes::complete::{take_until, take_while, take_while1};
use nom::Parser;

/// `LANG NAME` on the first line (LANG one of `words`, the dialect's spellings), then the
/// description: everything up to the first `{`, kept trimmed and not tokenised (it may
/// hold quotes and span lines). Shared by both dialects.
pub fn header_of<'a>(i: &'a str, words: [&str; 3]) -> PResult<'a, (&'a str, &'a str)> {
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
    match take_until::<_, _, lex::PErr>("{").parse(rest) {
        Ok((rest, description)) => Ok((rest, (name, description.trim()))),
        Err(_) => Err(lex::unexpected_in(
            &rest[rest.len()..],
            " after the description",
            "the init block `{ ... }`",
        )),
    }
}
