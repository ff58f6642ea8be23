//! `<< ... >>`, which Dat3M's lexer skips wherever it appears (a kernel launch
//! configuration, as in CUDA's `kernel<<<...>>>`). Blanked like comments, byte for byte.

/// Blanks every `<< ... >>` of `text` at or after `from` (the first `>>` closes), newlines
/// kept. Returns the offset of a `<<` that is never closed (the rest is left as it is).
pub(super) fn blank(text: &str, from: usize) -> (String, Option<usize>) {
    let mut out = String::with_capacity(text.len());
    let mut open: Option<usize> = None;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let next = chars.peek().map(|&(_, n)| n);
        if open.is_none() && at >= from && c == '<' && next == Some('<') {
            // Only closed ones are blanked: find the `>>` first.
            if text[at + 2..].contains(">>") {
                open = Some(at);
                chars.next();
                out.push_str("  ");
                continue;
            }
            out.push_str(&text[at..]);
            return (out, Some(at));
        }
        if open.is_some() {
            if c == '>' && next == Some('>') {
                chars.next();
                out.push_str("  ");
                open = None;
            } else if c == '\n' {
                out.push('\n');
            } else {
                out.extend(std::iter::repeat_n(' ', c.len_utf8()));
            }
            continue;
        }
        out.push(c);
    }
    (out, None)
}

#[cfg(test)]
mod tests {
    use super::blank;

    #[test]
    fn blanks_from_the_offset_keeping_lengths_and_newlines() {
        let (t, open) = blank("a<<b>> c <<é\n>>d", 1);
        assert_eq!(t, "a      c     \n  d");
        assert_eq!(open, None);
        // Before `from`, nothing is blanked.
        assert_eq!(blank("<<x>> y", 2).0, "<<x>> y");
    }

    #[test]
    fn reports_an_unclosed_config() {
        let (t, open) = blank("x <<a>> y << z", 0);
        assert_eq!(open, Some(10));
        assert_eq!(t.len(), "x <<a>> y << z".len());
        assert_eq!(&t[10..], "<< z");
    }
}
