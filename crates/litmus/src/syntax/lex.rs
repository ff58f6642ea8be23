//! Tokens shared by every section (whitespace, words, integers, registers) and the error
//! type, which carries the offending text and a message saying what was expected.
//!
//! Convention: token parsers skip the whitespace *before* their token and never after it,
//! so the text consumed by a construct ends exactly at its last token (good for spans).

use crate::ast::{Span, Spanned};
use crate::limits::MAX_REGISTER;
use crate::Diagnostic;
use nom::branch::alt;
use nom::bytes::complete::{tag_no_case, take_while, take_while1};
use nom::character::complete::{char, digit1, hex_digit1};
use nom::combinator::{opt, recognize};
use nom::error::{ErrorKind, ParseError};
use nom::sequence::pair;
use nom::{IResult, Parser};

/// A parse error: `at` is the offending text (empty at end of input), `msg` the message.
/// nom's own errors have an empty `msg`; they are backtracked over or turned into a
/// message by [`expect`] before they reach the user.
#[derive(Debug)]
pub struct PErr<'a> {
    pub at: &'a str,
    pub msg: String,
}

impl<'a> ParseError<&'a str> for PErr<'a> {
    fn from_error_kind(input: &'a str, _: ErrorKind) -> Self {
        PErr {
            at: input,
            msg: String::new(),
        }
    }

    fn append(_: &'a str, _: ErrorKind, other: Self) -> Self {
        other
    }
}

pub type PResult<'a, T> = IResult<&'a str, T, PErr<'a>>;

/// The text being parsed: `text` is the source with comments blanked out, byte for byte
/// the same length as `orig`, which is used for line/column numbers.
pub struct Src<'a> {
    orig: &'a str,
    pub text: &'a str,
    /// Byte offset of the start of each line, so that a span costs a binary search and
    /// not a scan from the start of the file.
    line_starts: Vec<usize>,
    /// OpenCL local variables not named `rK`, per thread: (name, register number). Empty
    /// for the Vulkan dialect, where a condition names registers only as `rK`.
    pub reg_names: Vec<Vec<(String, u32)>>,
    /// OpenCL arrays of the init block (name, length): a condition names their cells
    /// `y[1]`. Empty for the Vulkan dialect.
    pub arrays: Vec<(String, u64)>,
}

impl<'a> Src<'a> {
    pub fn new(orig: &'a str, text: &'a str) -> Self {
        let breaks = orig.match_indices('\n').map(|(at, _)| at + 1);
        Src {
            orig,
            text,
            line_starts: std::iter::once(0).chain(breaks).collect(),
            reg_names: Vec::new(),
            arrays: Vec::new(),
        }
    }

    /// The original text (comments not blanked).
    pub fn orig(&self) -> &'a str {
        self.orig
    }

    /// The register of thread `thread`'s variable `name` (OpenCL named variables).
    pub fn named_reg(&self, thread: usize, name: &str) -> Option<u32> {
        let names = self.reg_names.get(thread)?;
        names.iter().find(|(n, _)| n == name).map(|&(_, r)| r)
    }

    /// The span of `s`, a subslice of `self.text`; the same as `span_at` on the original.
    pub fn span(&self, s: &str) -> Span {
        let base = self.text.as_ptr() as usize;
        let mut off = (s.as_ptr() as usize)
            .saturating_sub(base)
            .min(self.orig.len());
        // Offsets come from token boundaries, which are char boundaries in both texts;
        // stepping back is only a guard against slicing `orig` mid-character.
        while !self.orig.is_char_boundary(off) {
            off -= 1;
        }
        let len = s.len().min(self.orig.len() - off);
        let line = self.line_starts.partition_point(|&start| start <= off);
        let start = self
            .line_starts
            .get(line.wrapping_sub(1))
            .copied()
            .unwrap_or(0);
        let column = self.orig.get(start..off).map_or(0, |t| t.chars().count());
        Span {
            offset: off,
            len,
            line: u32::try_from(line).unwrap_or(u32::MAX),
            column: u32::try_from(column + 1).unwrap_or(u32::MAX),
        }
    }

    pub fn spanned<T>(&self, value: T, s: &str) -> Spanned<T> {
        Spanned::new(value, self.span(s))
    }

    pub fn diagnostic(&self, e: nom::Err<PErr<'_>>) -> Diagnostic {
        match e {
            nom::Err::Error(e) | nom::Err::Failure(e) if e.msg.is_empty() => {
                let tok = token_at(e.at);
                Diagnostic::new(self.span(tok), unexpected_msg(tok, "", "something else"))
            }
            nom::Err::Error(e) | nom::Err::Failure(e) => Diagnostic::new(self.span(e.at), e.msg),
            nom::Err::Incomplete(_) => Diagnostic::new(
                self.span(&self.text[self.text.len()..]),
                "unexpected end of input",
            ),
        }
    }
}

/// A committed error at `at` (no alternative is tried after it).
pub fn err<'a>(at: &'a str, msg: impl Into<String>) -> nom::Err<PErr<'a>> {
    nom::Err::Failure(PErr {
        at,
        msg: msg.into(),
    })
}

pub fn fail<'a, T>(at: &'a str, msg: impl Into<String>) -> PResult<'a, T> {
    Err(err(at, msg))
}

fn unexpected_msg(tok: &str, ctx: &str, expected: &str) -> String {
    if tok.is_empty() {
        format!("unexpected end of input{ctx}: expected {expected}")
    } else {
        format!("unexpected `{tok}`{ctx}: expected {expected}")
    }
}

/// "unexpected `tok`{ctx}: expected {expected}", quoting the token at `i`.
pub fn unexpected_in<'a>(i: &'a str, ctx: &str, expected: &str) -> nom::Err<PErr<'a>> {
    let tok = token_at(i);
    err(tok, unexpected_msg(tok, ctx, expected))
}

pub fn unexpected<'a>(i: &'a str, expected: &str) -> nom::Err<PErr<'a>> {
    unexpected_in(i, "", expected)
}

/// Runs `p` at `i`; if it does not match, the token at `i` is reported as unexpected.
pub fn expect<'a, O>(
    i: &'a str,
    mut p: impl Parser<&'a str, Output = O, Error = PErr<'a>>,
    ctx: &str,
    expected: &str,
) -> PResult<'a, O> {
    match p.parse(i) {
        Err(nom::Err::Error(_)) => Err(unexpected_in(i, ctx, expected)),
        r => r,
    }
}

/// The text a message should quote at `i`: the word or number there, else one character.
pub fn token_at(i: &str) -> &str {
    let i = i.trim_start();
    let word_len = |s: &str| s.find(|c: char| !is_word(c)).unwrap_or(s.len());
    let n = match i.chars().next() {
        None => 0,
        Some(c) if is_word(c) => word_len(i),
        Some('-') if i[1..].starts_with(|c: char| c.is_ascii_digit()) => 1 + word_len(&i[1..]),
        Some(c) => c.len_utf8(),
    };
    &i[..n]
}

/// The part of `start` that was consumed to reach `rest` (a suffix of it).
pub fn consumed<'a>(start: &'a str, rest: &str) -> &'a str {
    start
        .get(..start.len().saturating_sub(rest.len()))
        .unwrap_or(start)
}

pub fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Whitespace, `\r` and blank lines included (comments are already blanked).
pub fn ws(i: &str) -> PResult<'_, &str> {
    take_while(|c: char| c.is_whitespace()).parse(i)
}

/// A run of word characters `[A-Za-z0-9_]`.
pub fn word(i: &str) -> PResult<'_, &str> {
    let (i, _) = ws(i)?;
    take_while1(is_word).parse(i)
}

/// An identifier: a word that does not start with a digit.
pub fn ident(i: &str) -> PResult<'_, &str> {
    let (j, w) = word(i)?;
    if w.starts_with(|c: char| c.is_ascii_digit()) {
        return Err(nom::Err::Error(PErr::from_error_kind(i, ErrorKind::Alpha)));
    }
    Ok((j, w))
}

/// If the next word is `kw`, the input after it.
pub fn keyword<'a>(i: &'a str, kw: &str) -> Option<&'a str> {
    match word(i) {
        Ok((rest, w)) if w == kw => Some(rest),
        _ => None,
    }
}

/// Skips whitespace, then the character `c`.
pub fn sym<'a>(i: &'a str, c: char, ctx: &str, expected: &str) -> PResult<'a, char> {
    let (i, _) = ws(i)?;
    expect(i, char(c), ctx, expected)
}

/// `r` followed by digits.
pub fn is_register(w: &str) -> bool {
    w.strip_prefix('r')
        .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
}

/// A register `rN`; any other word does not match.
pub fn register(i: &str) -> PResult<'_, u32> {
    let (j, w) = word(i)?;
    if !is_register(w) {
        return Err(nom::Err::Error(PErr::from_error_kind(i, ErrorKind::Tag)));
    }
    match w[1..].parse::<u32>() {
        Ok(n) if n <= MAX_REGISTER => Ok((j, n)),
        _ => fail(
            w,
            format!("register `{w}` out of range: expected `r0`..`r{MAX_REGISTER}`"),
        ),
    }
}

/// An integer: decimal or `0x` hex, optionally negative, fitting in an i64.
pub fn integer(i: &str) -> PResult<'_, i64> {
    let (i, _) = ws(i)?;
    let hex = recognize(pair(tag_no_case("0x"), hex_digit1));
    let (rest, text) = recognize(pair(opt(char('-')), alt((hex, digit1)))).parse(i)?;
    if rest.starts_with(is_word) {
        // `12ab`, `0xZ`: not a number; let the caller quote the whole word.
        return Err(nom::Err::Error(PErr::from_error_kind(i, ErrorKind::Digit)));
    }
    let digits = text.trim_start_matches('-');
    let magnitude = match digits.get(..2) {
        Some("0x" | "0X") => u64::from_str_radix(&digits[2..], 16),
        _ => digits.parse::<u64>(),
    };
    let value = magnitude.ok().and_then(|m| {
        let v = if text.starts_with('-') {
            -i128::from(m)
        } else {
            i128::from(m)
        };
        i64::try_from(v).ok()
    });
    match value {
        Some(v) => Ok((rest, v)),
        None => fail(
            text,
            format!(
                "integer `{text}` out of range: expected a value from {} to {}",
                i64::MIN,
                i64::MAX
            ),
        ),
    }
}

/// A non-negative integer (ids, counts).
pub fn natural(i: &str) -> PResult<'_, u64> {
    let (i, _) = ws(i)?;
    let (rest, v) = integer(i)?;
    match u64::try_from(v) {
        Ok(n) => Ok((rest, n)),
        Err(_) => fail(
            consumed(i, rest),
            format!("negative number `{v}`: expected a non-negative integer"),
        ),
    }
}

/// A thread number in decimal (`1` of `1:r0`, the numbers of `ssw`).
pub fn thread_number(digits: &str) -> Result<usize, nom::Err<PErr<'_>>> {
    digits
        .parse::<usize>()
        .map_err(|_| err(digits, format!("thread number `{digits}` out of range")))
}

/// `Pn` opening the header of thread `expected_id` (threads come in order P0, P1, ...):
/// the rest of the input and the word `Pn`. `what` names the header for errors.
pub fn thread_word<'a>(i: &'a str, expected_id: usize, what: &str) -> PResult<'a, &'a str> {
    let (j, p) = expect(i, word, "", what)?;
    let Some(digits) = p
        .strip_prefix('P')
        .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
    else {
        return Err(unexpected(i, what));
    };
    let id = thread_number(digits)?;
    if id != expected_id {
        return Err(err(
            p,
            format!(
                "thread header `{p}` out of order: expected `P{expected_id}` (threads are P0, P1, ... in order)"
            ),
        ));
    }
    Ok((j, p))
}

/// `Pn:rK` or `n:rK`, spaces allowed around `:`. Does not match (backtracks) unless a
/// thread word is followed by `:`, so `P1` alone is an ordinary location.
pub fn thread_reg(i: &str) -> PResult<'_, (usize, u32)> {
    let (j, w) = word(i)?;
    let num = w.strip_prefix('P').unwrap_or(w);
    let (k, _) = ws(j)?;
    let Some(k) = k.strip_prefix(':') else {
        return Err(nom::Err::Error(PErr::from_error_kind(i, ErrorKind::Char)));
    };
    if num.is_empty() || !num.bytes().all(|b| b.is_ascii_digit()) {
        return Err(nom::Err::Error(PErr::from_error_kind(i, ErrorKind::Digit)));
    }
    let thread = thread_number(num)?;
    let (k, reg) = expect(k, register, "", &format!("a register `rK` after `{w}:`"))?;
    Ok((k, (thread, reg)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_decimal_hex_negative_and_out_of_range() {
        assert_eq!(integer(" 42;").unwrap(), (";", 42));
        assert_eq!(integer("-0x10 ").unwrap(), (" ", -16));
        assert_eq!(integer("-9223372036854775808").unwrap().1, i64::MIN);
        assert!(matches!(
            integer("9223372036854775808"),
            Err(nom::Err::Failure(_))
        ));
        assert!(matches!(integer("0x"), Err(nom::Err::Error(_))));
        assert!(matches!(integer("12ab"), Err(nom::Err::Error(_))));
    }

    #[test]
    fn registers_and_thread_registers() {
        assert_eq!(register("r12,").unwrap(), (",", 12));
        assert!(matches!(register("rx"), Err(nom::Err::Error(_))));
        assert!(matches!(
            register("r99999999999"),
            Err(nom::Err::Failure(_))
        ));
        assert_eq!(register("r1023").unwrap(), ("", 1023));
        assert!(matches!(register("r1024"), Err(nom::Err::Failure(_))));
        assert_eq!(thread_reg("P1 : r0 ").unwrap(), (" ", (1, 0)));
        assert_eq!(thread_reg("2:r3").unwrap(), ("", (2, 3)));
        assert!(matches!(thread_reg("P1 = 0"), Err(nom::Err::Error(_))));
        assert!(matches!(thread_reg("P1:x"), Err(nom::Err::Failure(_))));
    }

    #[test]
    fn spans_agree_with_span_at() {
        let text = "ab\r\nç d\n\nxyz";
        let src = Src::new(text, text);
        for off in (0..=text.len()).filter(|&o| text.is_char_boundary(o)) {
            let len = text.len() - off;
            assert_eq!(
                src.span(&text[off..]),
                crate::span_at(text, off, len),
                "{off}"
            );
        }
    }

    #[test]
    fn token_at_quotes_words_numbers_and_characters() {
        assert_eq!(token_at("  foo.bar"), "foo");
        assert_eq!(token_at("-12x;"), "-12x");
        assert_eq!(token_at("é"), "é");
        assert_eq!(token_at("   "), "");
    }
}
