//! `(* ... *)` comments, which may appear anywhere and nest (as in herd7). They are
//! blanked out before parsing, byte for byte, keeping newlines, so every offset in the
//! blanked text is the same offset in the original. The OpenCL dialect also has C's
//! `// ...` and `/* ... */` ([`strip_c`]).

pub struct Stripped {
    pub text: String,
    /// Byte offset of the `(*` of a comment that is never closed.
    pub unterminated: Option<usize>,
}

pub fn strip(source: &str) -> Stripped {
    strip_with(source, false)
}

/// Like [`strip`], and also blanks C comments `// ...` (to the end of the line) and
/// `/* ... */` (not nesting). An unclosed `/*` is reported like an unclosed `(*`.
/// Inside braces (thread bodies and the init block) `(*` is not a comment: there C code
/// says `while (*y != 0)`.
pub fn strip_c(source: &str) -> Stripped {
    strip_with(source, true)
}

fn strip_with(source: &str, c_comments: bool) -> Stripped {
    let mut text = String::with_capacity(source.len());
    let mut depth = 0usize;
    let mut outer_start = 0;
    let mut chars = source.char_indices().peekable();
    // Inside a `/* */` comment: its start.
    let mut c_block: Option<usize> = None;
    // Depth of `{ }` outside comments (C mode only).
    let mut braces = 0usize;
    while let Some((at, c)) = chars.next() {
        let next = chars.peek().map(|&(_, n)| n);
        if c_block.is_some() {
            if c == '*' && next == Some('/') {
                chars.next();
                text.push_str("  ");
                c_block = None;
            } else if c == '\n' {
                text.push(c);
            } else {
                text.extend(std::iter::repeat_n(' ', c.len_utf8()));
            }
            continue;
        }
        if c_comments && depth == 0 && c == '/' && next == Some('/') {
            // To the end of the line, newline kept.
            text.push(' ');
            while let Some(&(_, n)) = chars.peek() {
                if n == '\n' {
                    break;
                }
                text.extend(std::iter::repeat_n(' ', n.len_utf8()));
                chars.next();
            }
        } else if c_comments && depth == 0 && c == '/' && next == Some('*') {
            chars.next();
            text.push_str("  ");
            c_block = Some(at);
        } else if c == '(' && next == Some('*') && (!c_comments || braces == 0 || depth > 0) {
            if depth == 0 {
                outer_start = at;
            }
            depth += 1;
            chars.next();
            text.push_str("  ");
        } else if depth > 0 && c == '*' && next == Some(')') {
            depth -= 1;
            chars.next();
            text.push_str("  ");
        } else if c_comments && depth == 0 && (c == '{' || c == '}') {
            braces = if c == '{' {
                braces + 1
            } else {
                braces.saturating_sub(1)
            };
            text.push(c);
        } else if depth > 0 && c != '\n' {
            // Same byte length, so offsets stay valid.
            text.extend(std::iter::repeat_n(' ', c.len_utf8()));
        } else {
            text.push(c);
        }
    }
    let unterminated = match c_block {
        Some(at) => Some(at),
        None => (depth > 0).then_some(outer_start),
    };
    Stripped { text, unterminated }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blanks_nested_comments_and_keeps_offsets() {
        let src = "a (* x (* é *) y *) b\n(* c\n d *)e";
        let s = strip(src);
        assert_eq!(s.text.len(), src.len());
        assert_eq!(
            s.text,
            format!(
                "a {} b\n{}\n{}e",
                " ".repeat(18),
                " ".repeat(4),
                " ".repeat(5)
            )
        );
        assert_eq!(s.unterminated, None);
    }

    #[test]
    fn c_comments_only_where_asked() {
        let src = "a // b (* c\nd /* e\n f */ g /\\ h";
        let s = strip_c(src);
        assert_eq!(s.text.len(), src.len());
        assert_eq!(
            s.text,
            format!(
                "a {}\nd {}\n{} g /\\ h",
                " ".repeat(9),
                " ".repeat(4),
                " ".repeat(5)
            )
        );
        assert_eq!(s.unterminated, None);
        assert_eq!(
            strip(src).text.lines().next().map(str::trim_end),
            Some("a // b")
        );
        assert_eq!(strip_c("x /* y").unterminated, Some(2));
        // In braces, `(*` is C: a parenthesised dereference.
        let code = "(* c *) { while (*y != 0) (*x) = 1; } (* d *)";
        assert_eq!(
            strip_c(code).text,
            format!(
                "{} {{ while (*y != 0) (*x) = 1; }} {}",
                " ".repeat(7),
                " ".repeat(7)
            )
        );
    }

    #[test]
    fn reports_the_outermost_unterminated_comment() {
        let s = strip("x (* a (* b *) c");
        assert_eq!(s.unterminated, Some(2));
        assert_eq!(s.text.trim(), "x");
    }
}
