//! Errors with source spans, and their rendering as `file:line:column` with a caret.

use crate::span::Span;
use std::fmt;

/// An error in an input file: where, and what was expected instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub span: Span,
    /// What is wrong, naming the offending text and what was expected, e.g.
    /// "unknown scope `wq`: expected one of sg, wg, qf, dv".
    pub message: String,
}

impl Diagnostic {
    pub fn new(span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            span,
            message: message.into(),
        }
    }

    /// Renders the diagnostic against the source it was produced from:
    ///
    /// ```text
    /// error: unknown scope `wq`: expected one of sg, wg, qf, dv
    ///  --> tests/mp.litmus:7:9
    ///   |
    /// 7 |  ld.atom.wq.sc0 r0, y
    ///   |         ^^
    /// ```
    pub fn render(&self, file: &str, source: &str) -> String {
        let line_no = self.span.line.max(1);
        let line_text = source
            .split('\n')
            .nth(line_no as usize - 1)
            .unwrap_or("")
            .trim_end_matches('\r');
        let gutter = line_no.to_string().len();
        let col = self.span.column.max(1) as usize;
        // The caret is as wide as the offending text, clipped to the line.
        let width = source
            .get(self.span.offset..self.span.offset + self.span.len)
            .map(|s| s.split('\n').next().unwrap_or("").chars().count())
            .unwrap_or(0)
            .max(1);
        let window = Window::around(line_text, col - 1, width);
        let pad: String = window
            .before_caret
            .chars()
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        format!(
            "error: {msg}\n{sp:gutter$}--> {file}:{line}:{col}\n{sp:gutter$} |\n{line} | {text}\n{sp:gutter$} | {pad}{carets}\n",
            msg = printable(&shorten_quotes(&self.message)),
            sp = "",
            line = line_no,
            text = printable(&window.text),
            carets = "^".repeat(window.width),
        )
    }
}

/// Most characters of a source line shown under an error; a longer line (minified text,
/// binary garbage) is cut to a window around the caret, marked with `...`.
pub const MAX_SHOWN_CHARS: usize = 100;
/// Characters kept before the caret when a line is cut.
const CONTEXT_BEFORE: usize = 40;
/// Quoted text in a message longer than this is cut in the middle.
const MAX_QUOTED_CHARS: usize = 60;

/// The part of a line shown under an error.
struct Window {
    text: String,
    /// The shown text before the caret (for padding).
    before_caret: String,
    /// The caret's width, clipped to the window.
    width: usize,
}

impl Window {
    /// The window of `line` around the caret at character `col` (0-based), `width` wide.
    fn around(line: &str, col: usize, width: usize) -> Window {
        let chars: Vec<char> = line.chars().collect();
        if chars.len() <= MAX_SHOWN_CHARS {
            return Window {
                text: line.to_string(),
                before_caret: chars.iter().take(col).collect(),
                width,
            };
        }
        let col = col.min(chars.len());
        let start = col.saturating_sub(CONTEXT_BEFORE);
        let end = (start + MAX_SHOWN_CHARS).min(chars.len());
        let head = if start > 0 { "..." } else { "" };
        let tail = if end < chars.len() { "..." } else { "" };
        let shown: String = chars[start..end].iter().collect();
        Window {
            text: format!("{head}{shown}{tail}"),
            before_caret: format!("{head}{}", chars[start..col].iter().collect::<String>()),
            width: width.min(end.saturating_sub(col)).max(1),
        }
    }
}

/// The message with every long `quoted` text cut in the middle (`abc...xyz`).
fn shorten_quotes(message: &str) -> String {
    let parts: Vec<&str> = message.split('`').collect();
    parts
        .iter()
        .enumerate()
        .map(|(k, part)| {
            let n = part.chars().count();
            // Odd parts are inside backticks (when the backticks are balanced).
            if k % 2 == 1 && k + 1 < parts.len() && n > MAX_QUOTED_CHARS {
                let head: String = part.chars().take(MAX_QUOTED_CHARS / 2).collect();
                let tail: String = part.chars().skip(n - 10).collect();
                format!("{head}...{tail}")
            } else {
                part.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("`")
}

/// `s` with control characters (other than tabs) shown as `\u{FFFD}`, one character for
/// one, so that a hostile input cannot send terminal escapes and columns stay aligned.
fn printable(s: &str) -> std::borrow::Cow<'_, str> {
    if s.chars().any(|c| c.is_control() && c != '\t') {
        s.chars()
            .map(|c| {
                if c.is_control() && c != '\t' {
                    '\u{FFFD}'
                } else {
                    c
                }
            })
            .collect::<String>()
            .into()
    } else {
        s.into()
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: {}",
            self.span.line.max(1),
            self.span.column.max(1),
            self.message
        )
    }
}

impl std::error::Error for Diagnostic {}

/// Something in an input file that its language would reject, or that reads differently
/// from what the language says, and that vkherd reads anyway: where, and the reading
/// chosen (docs/opencl.md). Warnings go to stderr and to a report's JSON `notes`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    pub span: Span,
    /// What the input does and how vkherd reads it.
    pub message: String,
}

impl Warning {
    pub fn new(span: Span, message: impl Into<String>) -> Self {
        Warning {
            span,
            message: message.into(),
        }
    }

    /// The warning as a report note: `Warning: LINE:COLUMN: message`.
    pub fn note(&self) -> String {
        format!(
            "Warning: {}:{}: {}",
            self.span.line.max(1),
            self.span.column.max(1),
            self.message
        )
    }
}

/// Computes the span of `sub` (a subslice of `source`) in `source`.
pub fn span_of(source: &str, sub: &str) -> Span {
    let offset = (sub.as_ptr() as usize).saturating_sub(source.as_ptr() as usize);
    span_at(source, offset.min(source.len()), sub.len())
}

/// The span of `len` bytes at byte `offset` of `source`, with its line and column.
pub fn span_at(source: &str, offset: usize, len: usize) -> Span {
    let before = &source[..offset.min(source.len())];
    let line = before.matches('\n').count() as u32 + 1;
    let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
    let column = before[line_start..].chars().count() as u32 + 1;
    Span {
        offset,
        len,
        line,
        column,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn render_never_shows_line_0_nor_control_characters() {
        let d = Diagnostic::new(Span::default(), "whole \u{1b}[2J test");
        let r = d.render("t.litmus", "VULKAN t\n");
        assert!(r.contains("--> t.litmus:1:1\n"), "{r}");
        assert!(!r.contains('\u{1b}'), "{r}");
        assert_eq!(d.to_string(), "1:1: whole \u{1b}[2J test");
        let src = "x\u{7}y = 1";
        let r = Diagnostic::new(span_at(src, 2, 1), "m").render("t", src);
        assert!(r.contains("1 | x\u{FFFD}y = 1\n"), "{r}");
        assert!(r.ends_with("  |   ^\n"), "{r}");
    }

    #[test]
    fn long_lines_are_cut_around_the_caret() {
        let src = format!("{}zz{}", " ".repeat(300), "y".repeat(300));
        let r = Diagnostic::new(
            span_at(&src, 300, 2),
            format!("unexpected `{}`", "q".repeat(500)),
        )
        .render("t", &src);
        let lines: Vec<&str> = r.lines().collect();
        assert!(lines[0].len() < 100, "{}", lines[0]);
        assert!(lines[1].ends_with("t:1:301"), "{}", lines[1]);
        let (text, caret) = (lines[3], lines[4]);
        assert!(
            text.starts_with("1 | ...") && text.ends_with("..."),
            "{text}"
        );
        assert!(text.chars().count() <= MAX_SHOWN_CHARS + 10, "{text}");
        // The caret still points at `zz`.
        let at = caret.find('^').unwrap();
        assert_eq!(&text[at..at + 2], "zz", "{r}");
        assert!(caret.ends_with("^^"), "{caret}");
    }
}
