//! The tokens of a cat file, read with nom: names, strings, `0`, `_`, operators and
//! punctuation. Comments `(* ... *)` (nested) and `// ...` are skipped like whitespace.

use crate::error::Error;
use nom::branch::alt;
use nom::bytes::complete::{tag, take_while, take_while1};
use nom::character::complete::satisfy;
use nom::combinator::recognize;
use nom::sequence::pair;
use nom::{IResult, Parser};
use vkherd_litmus::{span_at, Span};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tok {
    /// A name: a letter or `_` then letters, digits, `_`, `-`, `.` (herd7 allows `po-loc`).
    Ident(String),
    /// A string literal, `"..."`.
    Str(String),
    /// `0`
    Zero,
    /// `_`
    Under,
    /// An operator or punctuation: `| & \ ; * + ? ^-1 ~ [ ] ( ) = ,`.
    Sym(&'static str),
    Eof,
}

#[derive(Debug, Clone)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
}

/// The longer symbols first, so that `^-1` is not read as something shorter.
/// `++` (herd7's set addition), `{`, `}` (sets of tags) and `'` (tags) are recognised
/// only to be refused by name by the parser.
const SYMBOLS: [&str; 19] = [
    "^-1", "++", "{", "}", "'", "|", "&", "\\", ";", "*", "+", "?", "~", "[", "]", "(", ")", "=",
    ",",
];

type R<'a, T> = IResult<&'a str, T>;

fn ident(i: &str) -> R<'_, &str> {
    recognize(pair(
        satisfy(|c| c.is_ascii_alphabetic() || c == '_'),
        take_while(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.'),
    ))
    .parse(i)
}

fn number(i: &str) -> R<'_, &str> {
    take_while1(|c: char| c.is_ascii_digit()).parse(i)
}

fn symbol(i: &str) -> R<'_, &'static str> {
    for s in SYMBOLS {
        if let Ok((rest, _)) = tag::<_, _, nom::error::Error<&str>>(s).parse(i) {
            return Ok((rest, s));
        }
    }
    Err(nom::Err::Error(nom::error::Error::new(
        i,
        nom::error::ErrorKind::Tag,
    )))
}

/// Skips whitespace and comments; an unterminated `(*` is an error at the `(*`.
fn skip_blank<'a>(src: &'a str, mut i: &'a str) -> Result<&'a str, Error> {
    loop {
        let (rest, _) = alt((
            take_while1::<_, _, nom::error::Error<&str>>(char::is_whitespace),
            recognize(pair(tag("//"), take_while(|c| c != '\n'))),
        ))
        .parse(i)
        .unwrap_or((i, ""));
        if rest.len() != i.len() {
            i = rest;
            continue;
        }
        if i.starts_with("(*") {
            let start = src.len() - i.len();
            let mut depth = 0usize;
            let mut j = i;
            loop {
                if j.starts_with("(*") {
                    depth += 1;
                    j = &j[2..];
                } else if j.starts_with("*)") {
                    depth -= 1;
                    j = &j[2..];
                    if depth == 0 {
                        break;
                    }
                } else if let Some(c) = j.chars().next() {
                    j = &j[c.len_utf8()..];
                } else {
                    return Err(Error::syntax(
                        span_at(src, start, 2),
                        "unterminated comment: expected `*)` before the end of the file",
                    ));
                }
            }
            i = j;
            continue;
        }
        return Ok(i);
    }
}

/// Line starts of a source, so that a span costs a binary search, not a scan.
struct Lines<'a> {
    src: &'a str,
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    fn new(src: &'a str) -> Self {
        let starts = std::iter::once(0)
            .chain(src.match_indices('\n').map(|(at, _)| at + 1))
            .collect();
        Lines { src, starts }
    }

    fn span(&self, offset: usize, len: usize) -> Span {
        let line = self.starts.partition_point(|&s| s <= offset);
        let start = self.starts[line - 1];
        let column = self.src[start..offset].chars().count() + 1;
        Span {
            offset,
            len,
            line: u32::try_from(line).unwrap_or(u32::MAX),
            column: u32::try_from(column).unwrap_or(u32::MAX),
        }
    }
}

/// Splits `src` into tokens, ending with [`Tok::Eof`]. Text that is no token stops the
/// split: the tokens before it, then an `Eof` at it, and the error, which the parser
/// reports when it reaches that `Eof` (so that an earlier problem, such as a herd7
/// construct named as unsupported, is reported first).
pub fn tokenize(src: &str) -> (Vec<Token>, Option<Error>) {
    let lines = Lines::new(src);
    let mut out = Vec::new();
    let mut i = src;
    let error = loop {
        i = match skip_blank(src, i) {
            Ok(i) => i,
            Err(e) => break Some(e),
        };
        if i.is_empty() {
            break None;
        }
        match token(src, i) {
            Ok((rest, tok)) => {
                let at = src.len() - i.len();
                out.push(Token {
                    tok,
                    span: lines.span(at, i.len() - rest.len()),
                });
                i = rest;
            }
            Err(e) => break Some(e),
        }
    };
    let at = match &error {
        Some(e) => e.diagnostic.span.offset,
        None => src.len(),
    };
    out.push(Token {
        tok: Tok::Eof,
        span: lines.span(at, 0),
    });
    (out, error)
}

/// The token at the start of `i` (not blank, not empty), and the text after it.
fn token<'a>(src: &str, i: &'a str) -> Result<(&'a str, Tok), Error> {
    let at = src.len() - i.len();
    Ok(if let Ok((rest, w)) = ident(i) {
        let tok = if w == "_" {
            Tok::Under
        } else {
            Tok::Ident(w.to_string())
        };
        (rest, tok)
    } else if let Ok((rest, n)) = number(i) {
        if n != "0" {
            return Err(Error::syntax(
                span_at(src, at, n.len()),
                format!(
                    "unexpected number `{n}`: the only number in cat is `0` (the empty relation)"
                ),
            ));
        }
        (rest, Tok::Zero)
    } else if let Some(body) = i.strip_prefix('"') {
        match body.find(['"', '\n']) {
            Some(end) if body[end..].starts_with('"') => {
                (&body[end + 1..], Tok::Str(body[..end].to_string()))
            }
            _ => {
                return Err(Error::syntax(
                    span_at(src, at, 1),
                    "unterminated string: expected a closing `\"` on the same line",
                ))
            }
        }
    } else if let Ok((rest, s)) = symbol(i) {
        (rest, Tok::Sym(s))
    } else {
        let c = i.chars().next().expect("not empty");
        return Err(Error::syntax(
            span_at(src, at, c.len_utf8()),
            format!("unexpected character `{c}`: expected a name, an operator or `(`"),
        ));
    })
}
