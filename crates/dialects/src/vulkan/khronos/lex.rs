//! Lines, spans and the small nom lexers shared by the `.test` line parsers.

use nom::{
    bytes::complete::{take_while, take_while1},
    character::complete::{char, digit1, satisfy},
    combinator::{all_consuming, opt, recognize},
    error::Error as NomError,
    Parser,
};
use vkherd_litmus::{Diagnostic, Span};

/// Whitespace inside a line: `\r` (CRLF files), tabs, spaces, a byte-order mark, ...
pub(super) fn is_ws(c: char) -> bool {
    c.is_whitespace() || c == '\u{feff}'
}

/// One source line, without its comment and trailing whitespace. Leading whitespace is
/// kept so that subslices map back to columns.
#[derive(Debug, Clone, Copy)]
pub(super) struct Line<'a> {
    pub text: &'a str,
    /// Byte offset of the line's first character in the file.
    pub start: usize,
    /// 1-based line number.
    pub no: u32,
}

impl<'a> Line<'a> {
    /// Splits `source` into lines (on `\n`), dropping `//` comments and trailing
    /// whitespace (`\r` included).
    pub fn split(source: &'a str) -> impl Iterator<Item = Line<'a>> + 'a {
        let mut start = 0usize;
        source.split('\n').enumerate().map(move |(i, raw)| {
            let line_start = start;
            start = start.saturating_add(raw.len() + 1);
            let code = match raw.find("//") {
                Some(k) => &raw[..k],
                None => raw,
            };
            Line {
                text: code.trim_end_matches(is_ws),
                start: line_start,
                no: u32::try_from(i.saturating_add(1)).unwrap_or(u32::MAX),
            }
        })
    }

    /// The line's content without leading whitespace.
    pub fn body(&self) -> &'a str {
        self.text.trim_start_matches(is_ws)
    }

    /// The span of `sub`, a subslice of this line's text.
    pub fn span(&self, sub: &str) -> Span {
        let k = (sub.as_ptr() as usize)
            .saturating_sub(self.text.as_ptr() as usize)
            .min(self.text.len());
        let column = self.text.get(..k).map(|s| s.chars().count()).unwrap_or(k);
        Span {
            offset: self.start.saturating_add(k),
            len: sub.len(),
            line: self.no,
            column: u32::try_from(column.saturating_add(1)).unwrap_or(u32::MAX),
        }
    }

    /// The empty position just after the line's last character.
    pub fn end(&self) -> &'a str {
        &self.text[self.text.len()..]
    }

    /// The span of the whole line content (leading whitespace excluded).
    pub fn content_span(&self) -> Span {
        self.span(self.body())
    }

    pub fn error(&self, sub: &str, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(self.span(sub), message)
    }

    /// "unexpected `word`: expected ..." at `at` (or "unexpected end of line").
    pub fn unexpected(&self, at: &'a str, expected: &str) -> Diagnostic {
        let at = skip_ws(at);
        match word(at) {
            Some((_, w)) => self.error(w, format!("unexpected `{w}`: expected {expected}")),
            None => self.error(at, format!("unexpected end of line: expected {expected}")),
        }
    }
}

/// Skips whitespace.
pub(super) fn skip_ws(i: &str) -> &str {
    take_while::<_, _, NomError<&str>>(is_ws)
        .parse(i)
        .map(|(rest, _)| rest)
        .unwrap_or(i)
}

/// The next whitespace-delimited word after optional whitespace: `(rest, word)`.
pub(super) fn word(i: &str) -> Option<(&str, &str)> {
    take_while1::<_, _, NomError<&str>>(|c| !is_ws(c))
        .parse(skip_ws(i))
        .ok()
}

/// A variable name: `[A-Za-z_][A-Za-z0-9_]*`.
pub(super) fn ident(i: &str) -> Option<(&str, &str)> {
    recognize((
        satisfy::<_, _, NomError<&str>>(|c| c.is_ascii_alphabetic() || c == '_'),
        take_while(|c: char| c.is_ascii_alphanumeric() || c == '_'),
    ))
    .parse(i)
    .ok()
}

/// Parses a whole word as a non-negative integer; `what` names it in errors.
pub(super) fn uint_word(line: &Line<'_>, w: &str, what: &str) -> Result<u64, Diagnostic> {
    if all_consuming(digit1::<_, NomError<&str>>).parse(w).is_ok() {
        return w.parse::<u64>().map_err(|_| {
            line.error(
                w,
                format!(
                    "{what} `{w}` is out of range: expected at most {}",
                    u64::MAX
                ),
            )
        });
    }
    if int_word(w).is_some() {
        return Err(line.error(
            w,
            format!("negative {what} `{w}`: expected a non-negative integer"),
        ));
    }
    Err(line.error(
        w,
        format!("expected {what} (a non-negative integer), found `{w}`"),
    ))
}

/// `Some(Ok(v))` if `w` is entirely an integer in range, `Some(Err(()))` if it is an
/// integer out of range, `None` if it is not an integer.
fn int_word(w: &str) -> Option<Result<i64, ()>> {
    all_consuming(recognize((opt(char::<_, NomError<&str>>('-')), digit1)))
        .parse(w)
        .ok()
        .map(|(_, digits)| digits.parse::<i64>().map_err(|_| ()))
}

/// Parses a whole word as a (possibly negative) integer value.
pub(super) fn value_word(line: &Line<'_>, w: &str) -> Result<i64, Diagnostic> {
    match int_word(w) {
        Some(Ok(v)) => Ok(v),
        Some(Err(())) => Err(line.error(
            w,
            format!(
                "value `{w}` is out of range: expected an integer from {} to {}",
                i64::MIN,
                i64::MAX
            ),
        )),
        None => Err(line.error(w, format!("expected an integer value, found `{w}`"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_drop_comments_and_carriage_returns() {
        let src = "a // c\r\n\r\n  b\tc \r\nlast";
        let lines: Vec<_> = Line::split(src).collect();
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[0].text, "a");
        assert_eq!(lines[1].text, "");
        assert_eq!(lines[2].text, "  b\tc");
        assert_eq!(lines[2].body(), "b\tc");
        assert_eq!(lines[3].text, "last");
        let l = lines[2];
        let (_, w) = word(l.body()).unwrap();
        assert_eq!(w, "b");
        let sp = l.span(w);
        assert_eq!((sp.line, sp.column, sp.offset, sp.len), (3, 3, 12, 1));
        assert_eq!(&src[sp.offset..sp.offset + sp.len], "b");
        let end = l.span(l.end());
        assert_eq!((end.line, end.column, end.len), (3, 6, 0));
    }

    #[test]
    fn columns_count_characters() {
        let src = "é x";
        let l = Line::split(src).next().unwrap();
        let (_, w) = word(&l.text[2..]).unwrap();
        assert_eq!(w, "x");
        let sp = l.span(w);
        assert_eq!((sp.column, sp.offset), (3, 3));
    }

    #[test]
    fn numbers() {
        let l = Line::split("x").next().unwrap();
        assert_eq!(uint_word(&l, "18446744073709551615", "n"), Ok(u64::MAX));
        assert!(uint_word(&l, "18446744073709551616", "n")
            .unwrap_err()
            .message
            .contains("out of range"));
        assert!(uint_word(&l, "-1", "n")
            .unwrap_err()
            .message
            .contains("negative"));
        assert!(uint_word(&l, "1a", "n")
            .unwrap_err()
            .message
            .contains("found `1a`"));
        assert_eq!(value_word(&l, "-9223372036854775808"), Ok(i64::MIN));
        assert!(value_word(&l, "9223372036854775808").is_err());
        assert!(value_word(&l, "+1").is_err());
        assert!(value_word(&l, "-").is_err());
        assert_eq!(ident("x1_ = 3"), Some((" = 3", "x1_")));
        assert_eq!(ident("1x"), None);
    }
}
