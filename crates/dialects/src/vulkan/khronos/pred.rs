//! The predicate of a `SATISFIABLE` / `NOSOLUTION` line:
//!
//! ```text
//! conj    := primary ( "&&" primary )*
//! primary := "(" conj ")" | "consistent" "[" "X" "]" | "#" ("dr" | "rs") ("=" | ">") N
//! ```
//!
//! Whitespace is allowed between any two symbols.

use super::ast::KhronosPred;
use super::lex::{is_ws, word, Line};
use nom::{
    branch::alt,
    bytes::complete::{tag, take_while},
    character::complete::{char, digit1},
    error::{ErrorKind, ParseError},
    IResult, Parser,
};
use vkherd_litmus::Diagnostic;

/// Deepest nesting of parentheses accepted (keeps the recursion bounded).
const MAX_DEPTH: u32 = 32;

const PRIMARY: &str = "`consistent[X]`, `#dr=N`, `#dr>N`, `#rs=N`, `#rs>N` or `(`";

/// A predicate parse error: where, and the message (built at the failure point).
#[derive(Debug)]
struct PErr<'a> {
    at: &'a str,
    /// The length of the offending text (the whole message is in `message`).
    len: usize,
    message: String,
}

impl<'a> ParseError<&'a str> for PErr<'a> {
    fn from_error_kind(at: &'a str, _kind: ErrorKind) -> Self {
        expected(at, PRIMARY)
    }

    fn append(_: &'a str, _: ErrorKind, other: Self) -> Self {
        other
    }
}

type PResult<'a, T> = IResult<&'a str, T, PErr<'a>>;

/// "unexpected `word`: expected {what}" at `at`.
fn expected<'a>(at: &'a str, what: &str) -> PErr<'a> {
    // Quote a name or number alone (`Y` of `Y]`), other text up to the next blank.
    let token = |w: &'a str| {
        let is_name = |c: char| c.is_ascii_alphanumeric() || c == '_';
        match w.find(|c: char| !is_name(c)) {
            Some(0) | None => w,
            Some(k) => &w[..k],
        }
    };
    match word(at).map(|(rest, w)| (rest, token(w))) {
        Some((_, w)) => PErr {
            at: w,
            len: w.len(),
            message: format!("unexpected `{w}` in the predicate: expected {what}"),
        },
        None => PErr {
            at,
            len: 0,
            message: format!("unexpected end of the predicate: expected {what}"),
        },
    }
}

fn fail<'a, T>(at: &'a str, what: &str) -> PResult<'a, T> {
    Err(nom::Err::Failure(expected(at, what)))
}

fn sp(i: &str) -> PResult<'_, &str> {
    take_while(is_ws).parse(i)
}

/// Runs `p`, turning its (recoverable) error into a failure "expected {what}" at `i`.
fn must<'a, O>(
    i: &'a str,
    mut p: impl Parser<&'a str, Output = O, Error = PErr<'a>>,
    what: &str,
) -> PResult<'a, O> {
    match p.parse(i) {
        Ok(r) => Ok(r),
        Err(nom::Err::Error(_)) => fail(i, what),
        Err(e) => Err(e),
    }
}

fn conj(i: &str, depth: u32) -> PResult<'_, Vec<KhronosPred>> {
    let (mut i, mut preds) = primary(i, depth)?;
    loop {
        let (j, _) = sp(i)?;
        match tag::<_, _, PErr>("&&").parse(j) {
            Ok((k, _)) => {
                let (k, more) = primary(k, depth)?;
                preds.extend(more);
                i = k;
            }
            Err(_) => return Ok((i, preds)),
        }
    }
}

fn primary(i: &str, depth: u32) -> PResult<'_, Vec<KhronosPred>> {
    let (i, _) = sp(i)?;
    if let Ok((j, _)) = char::<_, PErr>('(').parse(i) {
        if depth >= MAX_DEPTH {
            return fail(i, &format!("at most {MAX_DEPTH} nested parentheses"));
        }
        let (j, preds) = conj(j, depth + 1)?;
        let (j, _) = sp(j)?;
        let (j, _) = must(j, char(')'), "`&&` or `)`")?;
        return Ok((j, preds));
    }
    if let Ok((j, _)) = tag::<_, _, PErr>("consistent").parse(i) {
        let (j, _) = sp(j)?;
        let (j, _) = must(j, char('['), "`[X]` after `consistent`")?;
        let (j, _) = sp(j)?;
        let (j, _) = must(j, char('X'), "`X` in `consistent[X]`")?;
        let (j, _) = sp(j)?;
        let (j, _) = must(j, char(']'), "`]` in `consistent[X]`")?;
        return Ok((j, vec![KhronosPred::Consistent]));
    }
    if let Ok((j, _)) = char::<_, PErr>('#').parse(i) {
        let (j, _) = sp(j)?;
        let (j, rel) = must(j, alt((tag("dr"), tag("rs"))), "`dr` or `rs` after `#`")?;
        let (j, _) = sp(j)?;
        let (j, op) = must(
            j,
            alt((char('='), char('>'))),
            "`=` or `>` after the relation name",
        )?;
        let (j, _) = sp(j)?;
        let (rest, digits) = must(j, digit1, "a non-negative integer count")?;
        let n = match digits.parse::<u64>() {
            Ok(n) => n,
            Err(_) => {
                return Err(nom::Err::Failure(PErr {
                    at: digits,
                    len: digits.len(),
                    message: format!(
                        "count `{digits}` is out of range: expected at most {}",
                        u64::MAX
                    ),
                }))
            }
        };
        let greater = op == '>';
        let pred = if rel == "dr" {
            KhronosPred::DataRaces { greater, n }
        } else {
            KhronosPred::ReleaseSeq { greater, n }
        };
        return Ok((rest, vec![pred]));
    }
    fail(i, PRIMARY)
}

/// Parses a whole predicate (`text` is a subslice of `line`'s text).
pub(super) fn parse_pred(line: &Line<'_>, text: &str) -> Result<Vec<KhronosPred>, Diagnostic> {
    let to_diag = |e: PErr| {
        let mut span = line.span(e.at);
        span.len = e.len;
        Diagnostic::new(span, e.message)
    };
    let (rest, preds) = match conj(text, 0) {
        Ok(r) => r,
        Err(nom::Err::Error(e)) | Err(nom::Err::Failure(e)) => return Err(to_diag(e)),
        Err(nom::Err::Incomplete(_)) => return Err(to_diag(expected(text, PRIMARY))),
    };
    if rest.trim_start_matches(is_ws).is_empty() {
        return Ok(preds);
    }
    let mut e = expected(rest, "`&&` or end of line");
    if word(rest).is_some_and(|(_, w)| w.starts_with("NOCHAINS")) {
        e.message
            .push_str(" (`NOCHAINS` goes right after `SATISFIABLE` / `NOSOLUTION`)");
    }
    Err(to_diag(e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use KhronosPred::*;

    fn p(src: &str) -> Result<Vec<KhronosPred>, Diagnostic> {
        let line = Line::split(src).next().unwrap();
        parse_pred(&line, line.text)
    }

    #[test]
    fn forms() {
        assert_eq!(p("consistent[X]").unwrap(), vec![Consistent]);
        assert_eq!(
            p("consistent[X] && #dr=0").unwrap(),
            vec![
                Consistent,
                DataRaces {
                    greater: false,
                    n: 0
                }
            ]
        );
        assert_eq!(
            p("consistent[X]&&(#rs>1)").unwrap(),
            vec![
                Consistent,
                ReleaseSeq {
                    greater: true,
                    n: 1
                }
            ]
        );
        assert_eq!(
            p(" ( consistent [ X ] && ( # dr > 12 ) ) && #rs = 2 ").unwrap(),
            vec![
                Consistent,
                DataRaces {
                    greater: true,
                    n: 12
                },
                ReleaseSeq {
                    greater: false,
                    n: 2
                }
            ]
        );
        assert_eq!(
            p("#dr>0").unwrap(),
            vec![DataRaces {
                greater: true,
                n: 0
            }]
        );
    }

    #[test]
    fn errors() {
        let e = p("consistent[X] && #dq=0").unwrap_err();
        assert_eq!((e.span.column, e.span.len), (19, 2));
        assert!(e.message.contains("`dr` or `rs`"), "{}", e.message);
        let e = p("consistent[X] &&").unwrap_err();
        assert_eq!(e.span.column, 17);
        assert!(e.message.contains("end of the predicate"), "{}", e.message);
        let e = p("consistent[Y]").unwrap_err();
        assert_eq!(e.span.column, 12);
        let e = p("(#dr=0").unwrap_err();
        assert!(e.message.contains("`)`"), "{}", e.message);
        let e = p("#dr<0").unwrap_err();
        assert!(e.message.contains("`=` or `>`"), "{}", e.message);
        let e = p("#dr=-1").unwrap_err();
        assert!(e.message.contains("non-negative"), "{}", e.message);
        let e = p("#dr=99999999999999999999").unwrap_err();
        assert!(e.message.contains("out of range"), "{}", e.message);
        let e = p("consistent[X] NOCHAINS").unwrap_err();
        assert!(e.message.contains("right after"), "{}", e.message);
        let e = p("consistent[X] || #dr=0").unwrap_err();
        assert!(e.message.contains("`&&` or end of line"), "{}", e.message);
        let deep = format!("{}#dr=0{}", "(".repeat(40), ")".repeat(40));
        assert!(p(&deep).unwrap_err().message.contains("nested"));
        let ok = format!("{}#dr=0{}", "(".repeat(32), ")".repeat(32));
        assert!(p(&ok).is_ok());
        let huge = "(".repeat(100_000);
        assert!(p(&huge).is_err());
    }
}
