//! A trailing `!mmra(prefix:suffix, ...)` (docs/mmra.md), shared by both `.litmus`
//! dialects: after a Vulkan instruction, before an OpenCL statement's `;`.

use super::lex::{err, fail, ws, PErr, PResult};
use crate::mmra::{MmraTag, MmraTags};

const TAG: &str = "a tag `prefix:suffix` (letters, digits, `_`, `-`, `.`), like `sync-as:1`";

/// A tag's prefix or suffix: letters, digits, `_`, `-`, `.`.
fn is_tag_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')
}

fn tag_part(i: &str) -> (&str, &str) {
    let n = i.find(|c: char| !is_tag_char(c)).unwrap_or(i.len());
    (&i[n..], &i[..n])
}

/// The text to quote at `i`: a run of tag characters, or one character.
fn token(i: &str) -> &str {
    let (_, t) = tag_part(i);
    if t.is_empty() {
        i.get(..i.chars().next().map_or(0, char::len_utf8))
            .unwrap_or("")
    } else {
        t
    }
}

fn unexpected<'a>(i: &'a str, expected: &str) -> nom::Err<PErr<'a>> {
    let t = token(i);
    if t.is_empty() {
        err(
            t,
            format!("unexpected end of input in `!mmra(...)`: expected {expected}"),
        )
    } else {
        err(
            t,
            format!("unexpected `{t}` in `!mmra(...)`: expected {expected}"),
        )
    }
}

/// If the next token is `!` (spaces skipped), parses `!mmra(TAG, ...)` and returns the
/// tags with the text they were written in (for errors about where they may go);
/// otherwise returns `None` and consumes nothing. `!mmra()` is the empty set.
pub fn tags<'a>(i: &'a str) -> PResult<'a, Option<(MmraTags, &'a str)>> {
    let (j, _) = ws(i)?;
    let Some(after_bang) = j.strip_prefix('!') else {
        return Ok((i, None));
    };
    let Some(k) = after_bang
        .strip_prefix("mmra")
        .filter(|k| !k.starts_with(is_tag_char))
    else {
        let (_, word) = tag_part(after_bang);
        let at = &j[..1 + word.len()];
        return fail(
            at,
            format!("unexpected `{at}`: expected `!mmra(` followed by tags `prefix:suffix`"),
        );
    };
    let (k, _) = ws(k)?;
    let Some(mut k) = k.strip_prefix('(') else {
        return Err(unexpected(k, "`(` after `!mmra`"));
    };
    let mut list = Vec::new();
    loop {
        let (r, _) = ws(k)?;
        if list.is_empty() {
            if let Some(rest) = r.strip_prefix(')') {
                k = rest;
                break;
            }
        }
        let (r, prefix) = tag_part(r);
        if prefix.is_empty() {
            return Err(unexpected(r, TAG));
        }
        let Some(r) = r.strip_prefix(':') else {
            return Err(unexpected(
                r,
                &format!("`:` between the prefix `{prefix}` and a suffix, like `{prefix}:1`"),
            ));
        };
        let (r, suffix) = tag_part(r);
        if suffix.is_empty() {
            return Err(unexpected(
                r,
                &format!("the suffix of the tag `{prefix}:...`"),
            ));
        }
        list.push(MmraTag {
            prefix: prefix.to_string(),
            suffix: suffix.to_string(),
        });
        let (r, _) = ws(r)?;
        if let Some(rest) = r.strip_prefix(',') {
            k = rest;
        } else if let Some(rest) = r.strip_prefix(')') {
            k = rest;
            break;
        } else {
            return Err(unexpected(r, "`,` or `)`"));
        }
    }
    let written = &j[..j.len() - k.len()];
    Ok((k, Some((MmraTags::new(list), written))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(s: &str) -> (String, String) {
        let (rest, t) = tags(s).unwrap();
        let t = t.map(|(t, w)| format!("{t} [{w}]")).unwrap_or_default();
        (t, rest.to_string())
    }

    fn bad(s: &str) -> (String, String) {
        match tags(s) {
            Err(nom::Err::Failure(e)) => (e.at.to_string(), e.msg),
            other => panic!("expected a failure, got {other:?}"),
        }
    }

    #[test]
    fn parses_tag_lists() {
        assert_eq!(ok("  | x"), (String::new(), "  | x".into()));
        assert_eq!(
            ok(" !mmra(sync-as:1, vulkan:nonprivate) |"),
            (
                "!mmra(sync-as:1, vulkan:nonprivate) [!mmra(sync-as:1, vulkan:nonprivate)]".into(),
                " |".into()
            )
        );
        assert_eq!(ok("!mmra()"), (" [!mmra()]".into(), "".into()));
        assert_eq!(
            ok("!mmra ( b:2 ,a:x.y_z ,b:2 );"),
            (
                "!mmra(a:x.y_z, b:2) [!mmra ( b:2 ,a:x.y_z ,b:2 )]".into(),
                ";".into()
            )
        );
    }

    #[test]
    fn errors_quote_the_offending_text() {
        assert_eq!(
            bad("!mmr(a:b)"),
            (
                "!mmr".into(),
                "unexpected `!mmr`: expected `!mmra(` followed by tags `prefix:suffix`".into()
            )
        );
        assert_eq!(
            bad("!mmra a:b"),
            (
                "a".into(),
                "unexpected `a` in `!mmra(...)`: expected `(` after `!mmra`".into()
            )
        );
        assert_eq!(
            bad("!mmra(sync-as)"),
            (
                ")".into(),
                "unexpected `)` in `!mmra(...)`: expected `:` between the prefix `sync-as` and a suffix, like `sync-as:1`".into()
            )
        );
        assert_eq!(bad("!mmra(a:)").0, ")");
        assert_eq!(bad("!mmra(:b)").0, ":");
        assert_eq!(
            bad("!mmra(a:b c:d)").1,
            "unexpected `c` in `!mmra(...)`: expected `,` or `)`"
        );
        assert_eq!(
            bad("!mmra(a:b,").1,
            format!("unexpected end of input in `!mmra(...)`: expected {TAG}")
        );
        assert_eq!(bad("!mmra(a:b,)").0, ")");
    }
}
