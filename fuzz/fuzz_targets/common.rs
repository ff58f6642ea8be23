//! Checks shared by the fuzz targets: a diagnostic must name a real place in the source
//! (line and column from 1, a span inside the text on character boundaries, agreeing with
//! `span_at`) and render without panicking.

use vkherd_litmus::{span_at, Diagnostic};

/// The input as the CLI sees it (it reads files with `from_utf8_lossy`).
pub fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

pub fn check_diagnostic(source: &str, d: &Diagnostic) {
    let s = d.span;
    assert!(s.line >= 1 && s.column >= 1, "line/column 0: {d:?}");
    assert!(
        s.offset + s.len <= source.len(),
        "span out of bounds: {d:?}"
    );
    assert!(
        source.is_char_boundary(s.offset) && source.is_char_boundary(s.offset + s.len),
        "span not on character boundaries: {d:?}"
    );
    assert_eq!(
        span_at(source, s.offset, s.len),
        s,
        "inconsistent span: {d:?}"
    );
    assert!(!d.message.is_empty(), "empty message: {d:?}");
    let r = d.render("fuzz.input", source);
    assert!(r.starts_with("error: "), "{r}");
    assert!(!r.contains("fuzz.input:0:"), "line 0 rendered: {r}");
}
