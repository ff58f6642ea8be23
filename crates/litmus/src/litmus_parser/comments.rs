//! `(* ... *)` comments, which may appear anywhere and nest (as in herd7). They are
//! blanked out before parsing, byte for byte, keeping newlines, so every offset in the
//! blanked text is the same offset in the original.

pub(super) struct Stripped {
    pub text: String,
    /// Byte offset of the `(*` of a comment that is never closed.
    pub unterminated: Option<usize>,
}

pub(super) fn strip(source: &str) -> Stripped {
    let mut text = String::with_capacity(source.len());
    let mut depth = 0usize;
    let mut outer_start = 0;
    let mut chars = source.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let next = chars.peek().map(|&(_, n)| n);
        if c == '(' && next == Some('*') {
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
        } else if depth > 0 && c != '\n' {
            // Same byte length, so offsets stay valid.
            text.extend(std::iter::repeat_n(' ', c.len_utf8()));
        } else {
            text.push(c);
        }
    }
    Stripped {
        text,
        unterminated: (depth > 0).then_some(outer_start),
    }
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
    fn reports_the_outermost_unterminated_comment() {
        let s = strip("x (* a (* b *) c");
        assert_eq!(s.unterminated, Some(2));
        assert_eq!(s.text.trim(), "x");
    }
}
